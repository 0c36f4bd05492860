import { describe, expect, it } from 'vitest';
import { dateText } from './cells.ts';
import { notations, plainNumber } from './locale.ts';

describe('numbers and dates of German and French exports', () => {
  it('reads each language’s grouping and decimal comma, and nothing written otherwise', () => {
    const { en, de, fr } = notations;
    expect(plainNumber('1.234,56', de, 'decimal')).toBe('1234.56');
    expect(plainNumber('1.234', de, 'integer')).toBe('1234');
    expect(plainNumber('1,234', de, 'decimal')).toBe('1.234');
    expect(plainNumber('1,234', de, 'integer')).toBeUndefined();
    expect(plainNumber('1 234,5', fr, 'decimal')).toBe('1234.5');
    expect(plainNumber('1\u202f234', fr, 'integer')).toBe('1234');
    expect(plainNumber('1\u00a0234', fr, 'integer')).toBe('1234');
    for (const [text, notation] of [
      ['1.5', de],
      ['12.34', fr],
      ['1.234', fr],
      ['1,5', en],
      ['1.23.4', de],
    ] as const)
      expect([text, notation.language, plainNumber(text, notation, 'decimal')]).toEqual([
        text,
        notation.language,
        undefined,
      ]);
  });

  it('reads day-first dates in the file’s language only, and ISO dates in every one', () => {
    expect(dateText('25.11.2026', notations.de)).toBe('2026-11-25');
    expect(dateText('25/11/2026', notations.fr)).toBe('2026-11-25');
    expect(dateText('2026-11-25', notations.fr)).toBe('2026-11-25');
    expect(dateText('25.11.2026')).toBeUndefined();
    expect(dateText('25/11/2026', notations.de)).toBeUndefined();
    expect(dateText('31.02.2026', notations.de)).toBeUndefined();
  });
});
