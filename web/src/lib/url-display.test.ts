import { describe, expect, it } from 'vitest';
import { displayUrl } from './url-display.ts';

const DOMAIN = 'northwind-outfitters.co.uk';

describe('displayUrl', () => {
  it('shows the website’s own https pages as their path, with query and fragment, www. or not', () => {
    expect(displayUrl('https://www.northwind-outfitters.co.uk/walks/the-best-walks-in-the-lakes', DOMAIN)).toEqual({
      text: '/walks/the-best-walks-in-the-lakes',
      full: 'https://www.northwind-outfitters.co.uk/walks/the-best-walks-in-the-lakes',
      isOwnPage: true,
      isInsecure: false,
    });
    expect(displayUrl('https://northwind-outfitters.co.uk/search?q=fleece#top', DOMAIN).text).toBe(
      '/search?q=fleece#top',
    );
    expect(displayUrl('https://WWW.Northwind-Outfitters.co.uk/A%20b', DOMAIN).text).toBe('/A%20b');
  });

  it('shows the home page as / and a bare query after the host as a path', () => {
    expect(displayUrl('https://www.northwind-outfitters.co.uk', DOMAIN).text).toBe('/');
    expect(displayUrl('https://www.northwind-outfitters.co.uk/', DOMAIN).text).toBe('/');
    expect(displayUrl('https://www.northwind-outfitters.co.uk?utm=x', DOMAIN).text).toBe('/?utm=x');
  });

  it('shows an own page over plain http as its path too, marked insecure', () => {
    expect(displayUrl('http://www.northwind-outfitters.co.uk/walks?x=1', DOMAIN)).toEqual({
      text: '/walks?x=1',
      full: 'http://www.northwind-outfitters.co.uk/walks?x=1',
      isOwnPage: true,
      isInsecure: true,
    });
  });

  it('shows other hosts, subdomains, other ports and other schemes in full', () => {
    for (const url of [
      'https://www.gore-tex.com/technology',
      'http://www.mwis.org.uk/forecasts',
      'https://careers.northwind-outfitters.co.uk/jobs',
      'https://www.northwind-outfitters.co.uk:8443/walks',
      'https://www.northwind-outfitters.co.uk.evil.example/walks',
      'ftp://www.northwind-outfitters.co.uk/walks',
    ]) {
      expect(displayUrl(url, DOMAIN), url).toEqual({ text: url, full: url, isOwnPage: false, isInsecure: false });
    }
  });

  it('reads a domain recorded with a scheme or www., and shows everything in full without a domain', () => {
    const url = 'https://www.northwind-outfitters.co.uk/kit';
    expect(displayUrl(url, 'https://www.northwind-outfitters.co.uk/').text).toBe('/kit');
    expect(displayUrl(url, 'www.northwind-outfitters.co.uk').text).toBe('/kit');
    expect(displayUrl(url, undefined).text).toBe(url);
    expect(displayUrl(url, '').text).toBe(url);
  });

  it('leaves text that is not a URL as it is', () => {
    expect(displayUrl('/relative/path', DOMAIN)).toEqual({
      text: '/relative/path',
      full: '/relative/path',
      isOwnPage: false,
      isInsecure: false,
    });
    expect(displayUrl('not a url', DOMAIN).text).toBe('not a url');
  });
});
