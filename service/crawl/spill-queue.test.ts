import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpillQueue } from './spill-queue.ts';

describe('SpillQueue', () => {
  it('keeps first-in first-out order through its file, with pushes and shifts interleaved', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thc-spill-'));
    const file = path.join(dir, 'queue');
    const queue = new SpillQueue(file);
    let pushed = 0;
    let shifted = 0;
    const push = (n: number) => {
      for (let i = 0; i < n; i++, pushed++) queue.push(pushed, `https://example.com/ü/${pushed}\t"x"`);
    };
    const shift = (n: number) => {
      for (let i = 0; i < n; i++, shifted++)
        expect(queue.shift()).toEqual({ id: shifted, url: `https://example.com/ü/${shifted}\t"x"` });
    };
    push(100_000);
    expect(fs.statSync(file).size).toBeGreaterThan(0);
    shift(30_000);
    push(50_000);
    shift(100_000);
    push(3);
    shift(20_003);
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
    push(40_000);
    shift(40_000);
    queue.close();
    expect(fs.existsSync(file)).toBe(false);
    fs.rmSync(dir, { recursive: true });
  });
});
