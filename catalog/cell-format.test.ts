import { describe, expect, it } from 'vitest';
import { cellText, listItems, redirectHops, statusColour } from './cell-format.ts';

describe('status badge colours (spec §9)', () => {
  it.each([
    [200, 'green'],
    [201, 'gray'],
    [204, 'gray'],
    [301, 'orange'],
    [399, 'orange'],
    [404, 'red'],
    [499, 'red'],
    [500, 'gray'],
    [503, 'gray'],
    [100, 'gray'],
    [null, 'gray'],
  ])('%s is %s', (code, colour) => {
    expect(statusColour(code)).toBe(colour);
  });
});

describe('cell text per display format', () => {
  it('formats numbers the British way', () => {
    expect(cellText(1234567, 'long-number')).toBe('1,234,567');
    expect(cellText(1234.567, 'long-number-2dp')).toBe('1,234.57');
    expect(cellText(45_600, 'compact-number')).toBe('46k');
    expect(cellText(1_234_000, 'compact-number-2dp')).toBe('1.23m');
    expect(cellText(99.5, 'currency')).toBe('£99.50');
    expect(cellText(0.256, 'percent')).toBe('25.6%');
  });

  it('formats booleans, dates and strings', () => {
    expect(cellText(true, 'boolean')).toBe('Yes');
    expect(cellText(false, 'boolean')).toBe('No');
    expect(cellText('2025-03-04', 'date')).toBe('4 Mar 2025');
    expect(cellText('link_nofollow', 'capitalised')).toBe('Link nofollow');
    expect(cellText(404, 'status-code')).toBe('404');
    expect(cellText('https://example.com/a', 'url')).toBe('https://example.com/a');
  });

  it('writes nothing for missing values', () => {
    expect(cellText(null, 'long-number')).toBe('');
    expect(cellText(undefined, 'boolean')).toBe('');
    expect(cellText('', 'text')).toBe('');
  });

  it('lists redirect hops, images and headings', () => {
    const chain = [
      {
        url: 'http://a.example/',
        status_code: 301,
        redirects_to: 'https://a.example/',
        is_js_redirect: false,
        is_meta_redirect: false,
      },
      {
        url: 'https://a.example/',
        status_code: 200,
        redirects_to: null,
        is_js_redirect: true,
        is_meta_redirect: false,
      },
    ];
    expect(redirectHops(chain)).toHaveLength(2);
    expect(cellText(chain, 'redirect-chain')).toBe('http://a.example/ (301) → https://a.example/ (JavaScript)');
    expect(listItems([{ imgSrc: '/a.jpg', imgSize: 320 }])).toEqual(['/a.jpg (320 kB)']);
    const shorten = (url: string) => url.replace('https://shop.example', '');
    expect(
      listItems([{ imgSrc: 'https://shop.example/img/a.jpg', imgSize: 320 }, 'https://shop.example/b.png'], shorten),
    ).toEqual(['/img/a.jpg (320 kB)', '/b.png']);
    expect(listItems(['Intro', 'Prices'], shorten)).toEqual(['Intro', 'Prices']);
    expect(cellText(['Intro', 'Prices'], 'heading-list')).toBe('Intro | Prices');
  });
});
