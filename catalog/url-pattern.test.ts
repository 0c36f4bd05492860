import { describe, expect, it } from 'vitest';
import { compileUrlPattern, UrlPatternError } from './url-pattern.ts';

const refusal = (source: string): string => {
  try {
    compileUrlPattern(source);
  } catch (error) {
    if (error instanceof UrlPatternError) return error.message;
    throw error;
  }
  throw new Error(`${source} was accepted`);
};

describe('compileUrlPattern', () => {
  it('reads JavaScript syntax and finds the pattern anywhere in the URL', () => {
    const url = 'https://shop.example/docs/page?print=1';
    expect(compileUrlPattern('/docs/').test(url)).toBe(true);
    expect(compileUrlPattern('\\/docs\\/').test(url)).toBe(true);
    expect(compileUrlPattern('\\?print').test(url)).toBe(true);
    expect(compileUrlPattern('^https://shop\\.example/docs').test(url)).toBe(true);
    expect(compileUrlPattern('\\u0064ocs').test(url)).toBe(true);
    expect(compileUrlPattern('(?<section>docs)/').test(url)).toBe(true);
    expect(compileUrlPattern('[\\\\(?=]print').test(url)).toBe(true);
    expect(compileUrlPattern('/blog/').test(url)).toBe(false);
    expect(compileUrlPattern('page$').test(url)).toBe(false);
  });

  it('runs a pattern catastrophic for a backtracking engine in linear time', () => {
    const pattern = compileUrlPattern('(a+)+$');
    const url = `https://shop.example/${'a'.repeat(50_000)}/`;
    const started = performance.now();
    expect(pattern.test(url)).toBe(false);
    expect(pattern.test(url.slice(0, -1))).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses backreferences and lookaround with the reason, and invalid syntax as JavaScript words it', () => {
    const linear = '(patterns must run in linear time)';
    expect(refusal('(a)\\1')).toBe(`cannot be used: backreferences are not supported ${linear}`);
    expect(refusal('(?<n>a)\\k<n>')).toBe(`cannot be used: backreferences are not supported ${linear}`);
    expect(refusal('/docs(?=/)')).toBe(`cannot be used: lookahead and lookbehind are not supported ${linear}`);
    expect(refusal('(?<!x)a')).toBe(`cannot be used: lookahead and lookbehind are not supported ${linear}`);
    expect(refusal('a{1001}')).toMatch(/^cannot be used: the linear-time engine refuses it \(invalid repeat count/);
    expect(refusal('(')).toMatch(/^is not a valid regular expression \(Invalid regular expression: \/\(\/: .+\)$/);
  });

  it('does not take an escaped parenthesis or a character class for lookaround', () => {
    expect(compileUrlPattern('\\(?=x').test('https://a.example/=x')).toBe(true);
    expect(compileUrlPattern('[(?=]').test('https://a.example/=')).toBe(true);
  });
});
