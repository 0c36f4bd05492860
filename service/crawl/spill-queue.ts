/**
 * A first-in first-out queue of URLs (id and text) that keeps about two chunks in memory and spills the rest to a
 * file: a breadth-first crawl of ten million pages may have most of them queued at once, and a sitemap may name
 * millions before one is fetched. The oldest entries are read back from the file a chunk at a time; the newest wait
 * in memory until a chunk is full.
 */
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface QueuedUrl {
  id: number;
  url: string;
}

/** Entries per chunk: a few megabytes of URLs. */
const CHUNK = 16_384;
const READ_BYTES = 1 << 20;

export class SpillQueue {
  /** Oldest first, read from `head` on. */
  private front: QueuedUrl[] = [];
  private head = 0;
  /** Newest, appended to the file once a chunk is full while older entries wait. */
  private back: QueuedUrl[] = [];
  private fd: number | null = null;
  private written = 0;
  private readAt = 0;
  private spilled = 0;
  private partial = '';
  private decoder = new StringDecoder('utf8');
  private count = 0;

  constructor(private readonly file: string) {}

  get size(): number {
    return this.count;
  }

  push(id: number, url: string): void {
    this.back.push({ id, url });
    this.count++;
    if (this.back.length >= CHUNK) this.spill();
  }

  shift(): QueuedUrl | undefined {
    if (this.head === this.front.length) this.refill();
    if (this.head === this.front.length) return undefined;
    const entry = this.front[this.head++]!;
    this.count--;
    return entry;
  }

  /** Removes the file. */
  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    fs.rmSync(this.file, { force: true });
    this.fd = null;
  }

  private spill(): void {
    this.fd ??= fs.openSync(this.file, 'w+');
    const text = this.back.map((e) => `${e.id}\t${JSON.stringify(e.url)}\n`).join('');
    this.written += fs.writeSync(this.fd, text, this.written);
    this.spilled += this.back.length;
    this.back = [];
  }

  /** The next oldest entries: from the file while it holds any, else the newest in memory. */
  private refill(): void {
    this.front = [];
    this.head = 0;
    if (this.spilled === 0) {
      [this.front, this.back] = [this.back, this.front];
      return;
    }
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    while (this.front.length === 0 && this.spilled > 0) {
      // Only what was written since the file started over: older bytes may follow it.
      const read = fs.readSync(this.fd!, buffer, 0, Math.min(READ_BYTES, this.written - this.readAt), this.readAt);
      if (read === 0) throw new Error(`${this.file} ended with ${this.spilled} queued URLs unread`);
      this.readAt += read;
      const lines = (this.partial + this.decoder.write(buffer.subarray(0, read))).split('\n');
      this.partial = lines.pop()!;
      for (const line of lines) {
        const tab = line.indexOf('\t');
        this.front.push({ id: Number(line.slice(0, tab)), url: JSON.parse(line.slice(tab + 1)) as string });
      }
      this.spilled -= lines.length;
    }
    if (this.spilled === 0) {
      // Everything written was read: the file starts over.
      this.written = 0;
      this.readAt = 0;
    }
  }
}
