import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, csvLine, toCsv } from './csv.ts';

describe('csv', () => {
  it('quotes per RFC 4180 only where needed', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('')).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('neutralises values that start a spreadsheet formula', () => {
    expect(['=1+2', '+44', '-3', '@SUM(A1)'].map(csvCell)).toEqual(["'=1+2", "'+44", "'-3", "'@SUM(A1)"]);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('neutralises values that start with a tab or a carriage return (OWASP CSV injection)', () => {
    expect(csvCell('\t=1+2')).toBe("'\t=1+2");
    expect(csvCell('\t')).toBe("'\t");
    expect(csvCell('\r@SUM(A1)')).toBe(`"'\r@SUM(A1)"`);
    expect(csvCell('a\tb')).toBe('a\tb');
  });

  it('neutralises a line feed first, and formulas after leading blanks or a quote', () => {
    expect(csvCell('\n=1+2')).toBe(`"'\n=1+2"`);
    expect(csvCell(' =1+2')).toBe("' =1+2");
    expect(csvCell('   @SUM(A1)')).toBe("'   @SUM(A1)");
    expect(csvCell('\u00A0=1')).toBe("'\u00A0=1");
    expect(csvCell('\u3000=1')).toBe("'\u3000=1");
    expect(csvCell("'=1+2")).toBe("''=1+2");
    expect(csvCell('"=1+2')).toBe(`"'""=1+2"`);
    expect(csvCell(' "=1')).toBe(`"' ""=1"`);
  });

  it('neutralises full-width and small forms of = + - @', () => {
    for (const sign of ['\uFF1D', '\uFF0B', '\uFF0D', '\uFF20', '\uFE62', '\uFE63', '\uFE66', '\uFE6B'])
      expect(csvCell(`${sign}SUM(A1)`), sign).toBe(`'${sign}SUM(A1)`);
    expect(csvCell(' \uFF1D1')).toBe("' \uFF1D1");
  });

  it('leaves leading blanks, quotes and full-width text alone when no formula follows', () => {
    expect(csvCell(' plain')).toBe(' plain');
    expect(csvCell("'quoted'")).toBe("'quoted'");
    expect(csvCell('"hi"')).toBe('"""hi"""');
    expect(csvCell('\uFF21\uFF22')).toBe('\uFF21\uFF22');
    expect(csvCell('caf\u00E9 = bar')).toBe('caf\u00E9 = bar');
  });

  it('joins cells with commas and lines with CRLF after a BOM', () => {
    expect(csvLine(['a', 'b,c', ''])).toBe('a,"b,c",');
    expect(toCsv(['h1', 'h2'], [['1', '2']])).toBe('\uFEFFh1,h2\r\n1,2\r\n');
  });

  it('names the file after the title with a unix-seconds suffix', () => {
    expect(csvFileName('All crawled URLs', new Date(1_700_000_000_500))).toBe('all_crawled_urls_1700000000.csv');
  });
});
