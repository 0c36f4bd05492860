import { describe, expect, it } from 'vitest';
import { normalizeResolvedUrl, normalizeUrl } from './normalize-url.ts';

describe('normalizeUrl', () => {
  it('resolves relative references as browsers do, clamping dot segments at the root', () => {
    expect(normalizeUrl('../../../a/./b/../c.html', 'http://example.com/x/y.html')).toBe('http://example.com/a/c.html');
    expect(normalizeUrl('?q=1', 'http://example.com/dir/page.html')).toBe('http://example.com/dir/page.html?q=1');
    expect(normalizeUrl('//other.org/p', 'https://example.com/')).toBe('https://other.org/p');
  });

  it('drops fragments, default ports and credentials and lowercases the host', () => {
    expect(normalizeUrl('HTTP://User:pw@EXAMPLE.com:80/A#top')).toBe('http://example.com/A');
    expect(normalizeUrl('https://example.com:443')).toBe('https://example.com/');
    expect(normalizeUrl('http://127.0.0.1:8080/x#y')).toBe('http://127.0.0.1:8080/x');
  });

  it('upper-cases percent-escapes and decodes escaped unreserved characters', () => {
    expect(normalizeUrl('http://example.com/%7euser/a%2fb%c3%a9')).toBe('http://example.com/~user/a%2Fb%C3%A9');
    expect(normalizeUrl('http://example.com/%41%42')).toBe('http://example.com/AB');
  });

  it('keeps /dir/ and /dir/index.html apart', () => {
    expect(normalizeUrl('http://example.com/dir/')).not.toBe(normalizeUrl('http://example.com/dir/index.html'));
    expect(normalizeUrl('http://example.com/dir')).not.toBe(normalizeUrl('http://example.com/dir/'));
  });

  it('refuses what is not an http(s) URL', () => {
    expect(normalizeUrl('mailto:a@example.com')).toBeNull();
    expect(normalizeUrl('javascript:void(0)')).toBeNull();
    expect(normalizeUrl('not a url')).toBeNull();
    expect(normalizeUrl('ftp://example.com/')).toBeNull();
  });
});

describe('normalizeResolvedUrl', () => {
  it('agrees with normalizeUrl on serialized URLs', () => {
    for (const url of [
      'http://example.com/a/b.html?x=1',
      'https://example.com/',
      'http://example.com/%7eu/%c3%a9',
      'http://u:p@example.com/a',
      'http://example.com/a#frag',
      'mailto:someone@example.com',
    ]) {
      expect(normalizeResolvedUrl(url)).toBe(normalizeUrl(url));
    }
  });
});
