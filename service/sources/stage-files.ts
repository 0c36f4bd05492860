/** Stages files with one importer into an in-memory DuckDB and reads the staged rows back (importer unit tests). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, quoteIdent } from '../db/duckdb.ts';
import { openSourceFile } from './detect-format.ts';
import type { Importer, Staged } from './importer.ts';

export interface StagedRows extends Omit<Staged, 'tables'> {
  tables: Record<string, Record<string, unknown>[]>;
}

const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

export async function stageFiles(
  importer: Importer,
  files: string[],
  range?: { start: string; end: string },
): Promise<StagedRows> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-stage-'));
  const db = await openDatabase(':memory:');
  const conn = await db.connect();
  try {
    const sources = files.map((f) => openSourceFile(f, f));
    const staged = await importer.stage(sources, { conn, workDir, range });
    // Before the scratch folder goes: a file kept as it is is hashed from there.
    await staged.hashes;
    const tables: StagedRows['tables'] = {};
    for (const [id, name] of staged.tables)
      tables[id] = (await conn.runAndReadAll(`SELECT * FROM ${quoteIdent(name)}`))
        .getRowObjectsJS()
        .map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? dayOf(v) : v])));
    return { ...staged, tables };
  } finally {
    conn.closeSync();
    db.closeSync();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
