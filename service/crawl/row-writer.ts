/**
 * Rows streamed to disk as the crawl goes: newline-delimited JSON, buffered, one file per kind of row. DuckDB
 * reads them back at the end of the crawl, so memory holds no page content beyond the pages in flight.
 */
import fs from 'node:fs';

const FLUSH_BYTES = 1 << 20;

export class RowWriter<Row extends object = object> {
  private readonly stream: fs.WriteStream;
  private pending: string[] = [];
  private pendingBytes = 0;
  private drain: Promise<void> | null = null;
  /** Settles when the last chunk handed to the file is written. */
  private lastWrite: Promise<void> = Promise.resolve();
  rows = 0;

  constructor(readonly file: string) {
    this.stream = fs.createWriteStream(file, { flags: 'w' });
  }

  write(row: Row): void {
    this.writeLine(`${JSON.stringify(row)}\n`);
  }

  /** A row already serialized: one JSON object and its newline. */
  writeLine(line: string): void {
    this.pending.push(line);
    this.pendingBytes += line.length;
    this.rows++;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  /** Hands buffered rows to the file; true when the file accepts more without waiting. */
  flush(): boolean {
    if (this.pending.length > 0) {
      let isAccepted = true;
      this.lastWrite = new Promise((resolve) => {
        isAccepted = this.stream.write(this.pending.join(''), () => resolve());
      });
      if (!isAccepted && this.drain === null) {
        this.drain = new Promise((resolve) =>
          this.stream.once('drain', () => {
            this.drain = null;
            resolve();
          }),
        );
      }
      this.pending = [];
      this.pendingBytes = 0;
    }
    return this.drain === null;
  }

  /** Resolves once the file has caught up, so a fast crawl cannot pile rows up in memory. */
  async drained(): Promise<void> {
    if (this.flush()) return;
    await this.drain;
  }

  /** Resolves once every row written so far is in the file, to be read back. */
  async settled(): Promise<void> {
    this.flush();
    await this.lastWrite;
  }

  async close(): Promise<void> {
    this.flush();
    await new Promise<void>((resolve, reject) =>
      this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
