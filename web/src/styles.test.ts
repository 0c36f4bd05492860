import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;
const MANTINE_STYLES = path.resolve(SRC, '../../node_modules/@mantine/core/styles');
/** Components whose parts are styled by other sheets (Mantine names them in each component's docs). */
const PARTS: Record<string, readonly string[]> = {
  MultiSelect: ['Combobox', 'Input', 'Pill', 'PillsInput'],
  Select: ['Combobox', 'Input'],
  TextInput: ['Input'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The @mantine/core names the dashboard imports, and the parts they are made of. */
function mantineComponentsUsed(): Set<string> {
  const used = new Set<string>();
  for (const file of sourceFiles(SRC))
    for (const [, names] of fs.readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@mantine\/core'/g))
      for (const name of names!.split(',').map((n) => n.replace(/^\s*type\s+/, '').trim()))
        if (name) for (const part of [name, ...(PARTS[name] ?? [])]) used.add(part);
  return used;
}

describe('styles.ts', () => {
  // A component without its sheet renders unstyled: the bell's unread count stood above the bell, not on its corner.
  it('imports the stylesheet of every Mantine component the dashboard uses', () => {
    const imported = fs.readFileSync(path.join(SRC, 'styles.ts'), 'utf8');
    const missing = [...mantineComponentsUsed()]
      .filter((name) => fs.existsSync(path.join(MANTINE_STYLES, `${name}.css`)))
      .filter((name) => !imported.includes(`'@mantine/core/styles/${name}.css'`))
      .sort();
    expect(missing).toEqual([]);
  });
});
