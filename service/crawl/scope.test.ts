import { describe, expect, it } from 'vitest';
import { Scope } from './scope.ts';

const options = { includeSubdomains: false, include: [], exclude: [] };

describe('Scope', () => {
  it('places the start host internal, sibling subdomains outside the scope and other hosts external', () => {
    const scope = new Scope('https://www.example.com/start', options);
    expect(scope.place('https://www.example.com/a')).toBe('internal');
    expect(scope.place('http://www.example.com/a')).toBe('internal');
    expect(scope.place('https://blog.example.com/a')).toBe('outside_scope');
    expect(scope.place('https://example.com/a')).toBe('outside_scope');
    expect(scope.place('https://example.org/a')).toBe('external');
    expect(scope.place('https://notexample.com/a')).toBe('external');
  });

  it('takes subdomains in with --include-subdomains', () => {
    const scope = new Scope('https://example.com/', { ...options, includeSubdomains: true });
    expect(scope.place('https://shop.example.com/a')).toBe('internal');
    expect(scope.place('https://example.net/a')).toBe('external');
  });

  it('treats another port of the same loopback host as another website', () => {
    const scope = new Scope('http://127.0.0.1:8080/', options);
    expect(scope.place('http://127.0.0.1:8080/x')).toBe('internal');
    expect(scope.place('http://127.0.0.1:9090/x')).toBe('external');
  });

  it('knows the twins of the start host (www, scheme, port) and takes one in when adopted', () => {
    const scope = new Scope('http://example.com/', options);
    expect(scope.isTwin('https://www.example.com/')).toBe(true);
    expect(scope.isTwin('http://example.com:8080/')).toBe(true);
    expect(scope.isTwin('https://shop.example.com/')).toBe(false);
    expect(scope.isTwin('https://example.org/')).toBe(false);
    expect(scope.place('https://www.example.com/a')).toBe('outside_scope');
    scope.adopt('https://www.example.com/');
    expect(scope.place('https://www.example.com/a')).toBe('internal');
    expect(scope.place('http://example.com/a')).toBe('internal');
    expect(scope.place('https://shop.example.com/a')).toBe('outside_scope');
  });

  it('applies --include before --exclude', () => {
    const scope = new Scope('http://example.com/', { ...options, include: [/\/docs\//], exclude: [/\/old\//] });
    expect(scope.isExcluded('http://example.com/docs/a')).toBe(false);
    expect(scope.isExcluded('http://example.com/blog/a')).toBe(true);
    expect(scope.isExcluded('http://example.com/docs/old/a')).toBe(true);
    expect(new Scope('http://example.com/', options).isExcluded('http://example.com/anything')).toBe(false);
  });
});
