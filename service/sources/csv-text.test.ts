import { describe, expect, it } from 'vitest';
import { dateText } from './cells.ts';
import { isBlank, parseCsv } from './csv-text.ts';

describe('parseCsv', () => {
  it('keeps quoted separators, doubled quotes, CRLF and the line each record starts on', () => {
    const records = parseCsv(
      'f.csv',
      '\uFEFFTop queries,Clicks\r\n"urlaub, deutschland",12\r\n"say ""hi""\nthere",3\r\n',
    );
    expect(records).toEqual([
      { line: 1, cells: ['Top queries', 'Clicks'] },
      { line: 2, cells: ['urlaub, deutschland', '12'] },
      { line: 3, cells: ['say "hi"\nthere', '3'] },
    ]);
  });

  it('refuses a quoted cell cut off by the end of the file', () => {
    expect(() => parseCsv('f.csv', 'a,b\n1,"/de/?utm_source=x')).toThrow('f.csv:2: a quoted cell is not closed');
  });

  it('tells blank records from empty cells', () => {
    const [blank, cells] = parseCsv('f.csv', ',,\n,1,\n');
    expect(isBlank(blank!)).toBe(true);
    expect(isBlank(cells!)).toBe(false);
  });
});

describe('dateText', () => {
  it('reads both vendor shapes and refuses impossible days', () => {
    expect(dateText('20261114')).toBe('2026-11-14');
    expect(dateText('2026-11-14')).toBe('2026-11-14');
    expect(dateText('2026-11-31')).toBeUndefined();
    expect(dateText('14/11/2026')).toBeUndefined();
  });
});
