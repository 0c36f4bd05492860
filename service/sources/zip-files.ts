/**
 * Vendor exports that come zipped (Search Console's Performance report download holds Queries.csv, Pages.csv,
 * Countries.csv, Devices.csv, Search appearance.csv, Dates.csv and Filters.csv): each ZIP is unpacked into a scratch
 * folder and its files take its place, named `export.zip/Pages.csv` in messages, so detection reads their content
 * like any other file. A truncated or damaged ZIP is refused, naming it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { openSourceFile } from './detect-format.ts';
import { ImportError } from './import-error.ts';
import type { SourceFile } from './importer.ts';

/** Far above any vendor export of this kind; a ZIP claiming more is refused rather than unpacked. */
const MAX_UNPACKED_BYTES = 4 * 1024 ** 3;

const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];
export const isZip = (file: SourceFile): boolean => ZIP_MAGIC.some((m) => file.head.subarray(0, 4).equals(m));

/** Folders, macOS resource forks and hidden files are not exports. */
const isExport = (name: string): boolean =>
  !name.endsWith('/') && !name.startsWith('__MACOSX/') && !path.basename(name).startsWith('.');

function openZip(file: SourceFile): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file.path, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
}

async function unpack(file: SourceFile, dir: string): Promise<SourceFile[]> {
  const zip = await openZip(file);
  const found: SourceFile[] = [];
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        bytes += entry.uncompressedSize;
        if (bytes > MAX_UNPACKED_BYTES) return reject(new Error(`more than ${MAX_UNPACKED_BYTES} bytes unpacked`));
        if (!isExport(entry.fileName)) return zip.readEntry();
        const target = path.join(dir, `${found.length}-${path.basename(entry.fileName)}`);
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(error);
          pipeline(stream, fs.createWriteStream(target)).then(() => {
            found.push(openSourceFile(`${file.name}/${entry.fileName}`, target));
            zip.readEntry();
          }, reject);
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  if (found.length === 0) throw new ImportError(`${file.name}: a ZIP without files`);
  return found;
}

/** The files to import: each ZIP replaced by the files it holds (unpacked into `dir`), others as given. */
export async function expandZips(files: readonly SourceFile[], dir: string): Promise<SourceFile[]> {
  const expanded: SourceFile[] = [];
  for (const [i, file] of files.entries()) {
    if (!isZip(file)) {
      expanded.push(file);
      continue;
    }
    const into = fs.mkdtempSync(path.join(dir, `zip-${i}-`));
    try {
      expanded.push(...(await unpack(file, into)));
    } catch (error) {
      if (error instanceof ImportError) throw error;
      throw new ImportError(`${file.name}: a truncated or damaged ZIP (${(error as Error).message})`, 'invalid-input', {
        cause: error,
      });
    }
  }
  return expanded;
}
