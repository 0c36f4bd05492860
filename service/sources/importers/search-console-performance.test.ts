import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importerOf, openSourceFile } from '../detect-format.ts';
import { stageFiles } from '../stage-files.ts';
import { searchConsolePerformance } from './search-console-performance.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/sources/search-console');
const inDir = (dir: string, names: string[]): string[] => names.map((n) => path.join(FIXTURES, dir, n));
const english = inDir('performance', ['Pages.csv', 'Dates.csv', 'Filters.csv']);
const german = inDir('performance-de', ['Seiten.csv', 'Diagramm.csv', 'Filter.csv']);
const french = inDir('performance-fr', ['Pages.csv', 'Graphique.csv', 'Filtres.csv']);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-performance-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A copy of a fixture with one line replaced. */
function edited(file: string, line: number, text: string): string {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines[line - 1] = text;
  const copy = path.join(work, `${path.basename(path.dirname(file))}-${path.basename(file)}`);
  fs.writeFileSync(copy, lines.join('\n'));
  return copy;
}

describe('the Search Console Performance export in German and French', () => {
  it('is told from its headers and read as the English export of the same report', async () => {
    for (const file of [...german, ...french])
      expect(importerOf(openSourceFile(file, file), 'search-console')).toBe(searchConsolePerformance);
    const expected = await stageFiles(searchConsolePerformance, english);
    expect(expected.tables.search_console![0]).toMatchObject({ clicks: 412n, impressions: 9310n, position: 6.8 });
    for (const files of [german, french]) {
      const staged = await stageFiles(searchConsolePerformance, files);
      expect(staged.coverage).toEqual({ start: '2026-11-01', end: '2026-11-14', granularity: 'period' });
      expect(staged.tables).toEqual(expected.tables);
    }
  });

  it('refuses a cell the language writes otherwise, naming file, line, column and what to change', async () => {
    const pointDecimal = edited(german[0]!, 2, 'https://www.alpine-travel.eu/de/,412,9.310,"4,43 %",6.8');
    await expect(stageFiles(searchConsolePerformance, [pointDecimal, german[1]!])).rejects.toThrow(
      `${pointDecimal}:2:5: Position "6.8" is not a number (a German export writes numbers such as 1.234,56; download it again unedited, or with the product set to English)`,
    );
    const commaThousands = edited(
      german[0]!,
      3,
      'https://www.alpine-travel.eu/de/deutschland/,95,"2,204","4,31 %","9,12"',
    );
    await expect(stageFiles(searchConsolePerformance, [commaThousands, german[1]!])).rejects.toThrow(
      `${commaThousands}:3:3: Impressionen "2,204" is not a whole number (a German export`,
    );
    const dotThousands = edited(french[0]!, 2, 'https://www.alpine-travel.eu/de/,412,9.310,"4,43 %","6,8"');
    await expect(stageFiles(searchConsolePerformance, [dotThousands, french[1]!])).rejects.toThrow(
      `${dotThousands}:2:3: Impressions "9.310" is not a whole number (a French export writes numbers such as 1 234,56;`,
    );
    const commaInEnglish = edited(english[0]!, 2, 'https://www.alpine-travel.eu/de/,412,9310,"4,43%",6.8');
    await expect(stageFiles(searchConsolePerformance, [commaInEnglish, english[1]!])).rejects.toThrow(
      `${commaInEnglish}:2:4: CTR "4,43%" is not a percentage`,
    );
  });
});
