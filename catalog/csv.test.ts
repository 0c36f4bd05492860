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

  it('joins cells with commas and lines with CRLF after a BOM', () => {
    expect(csvLine(['a', 'b,c', ''])).toBe('a,"b,c",');
    expect(toCsv(['h1', 'h2'], [['1', '2']])).toBe('\uFEFFh1,h2\r\n1,2\r\n');
  });

  it('names the file after the title with a unix-seconds suffix', () => {
    expect(csvFileName('All crawled URLs', new Date(1_700_000_000_500))).toBe('all_crawled_urls_1700000000.csv');
  });
});
