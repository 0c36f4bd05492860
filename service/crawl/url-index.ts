/**
 * The seen-URL set: each known URL's id by a 64-bit fingerprint of its text, in typed arrays (about 14 bytes a URL
 * instead of the ~270 a Map of strings takes), so ten million URLs fit in a crawl's memory. Two URLs with one
 * fingerprint would be taken for one; at 10M URLs the chance of any such pair is about 3 in a million (Heritrix's
 * FPUriUniqFilter makes the same trade). The texts themselves are kept on disk by the frontier.
 */
import { GrowableUint32 } from './growable.ts';

const EMPTY = 0;
/** The table grows past this share of its slots in use: linear probing stays short. */
const MAX_LOAD = 0.7;

/** Two independent 32-bit hashes of the text in one pass: FNV-1a and a multiply-xorshift (murmur-like) mix. */
export function fingerprint(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  b = Math.imul(b ^ (b >>> 15), 0x27d4eb2d);
  return [a >>> 0, (b ^ (b >>> 16)) >>> 0];
}

export class UrlIndex {
  /** Per id, its fingerprint's halves. */
  private readonly high = new GrowableUint32();
  private readonly low = new GrowableUint32();
  /** Open addressing: id + 1 per slot, EMPTY when free. */
  private slots = new Uint32Array(1 << 16);
  private used = 0;

  get size(): number {
    return this.used;
  }

  /** The id of a text added before, or undefined. */
  get(text: string): number | undefined {
    const [h, l] = fingerprint(text);
    const slot = this.find(h, l);
    const stored = this.slots[slot]!;
    return stored === EMPTY ? undefined : stored - 1;
  }

  /** The text's id: the one it had, or `next` (the count so far), which it now has. */
  add(text: string): { id: number; isNew: boolean } {
    const [h, l] = fingerprint(text);
    const slot = this.find(h, l);
    const stored = this.slots[slot]!;
    if (stored !== EMPTY) return { id: stored - 1, isNew: false };
    const id = this.used++;
    this.high.push(h);
    this.low.push(l);
    this.slots[slot] = id + 1;
    if (this.used > this.slots.length * MAX_LOAD) this.grow();
    return { id, isNew: true };
  }

  /** The slot holding this fingerprint, or the empty slot where it would go. */
  private find(h: number, l: number): number {
    const mask = this.slots.length - 1;
    let slot = (h ^ Math.imul(l, 0x9e3779b1)) & mask;
    for (;;) {
      const stored = this.slots[slot]!;
      if (stored === EMPTY) return slot;
      const id = stored - 1;
      if (this.high.at(id) === h && this.low.at(id) === l) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    this.slots = new Uint32Array(this.slots.length * 2);
    for (let id = 0; id < this.used; id++) {
      const slot = this.find(this.high.at(id), this.low.at(id));
      this.slots[slot] = id + 1;
    }
  }
}
