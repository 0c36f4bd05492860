/**
 * The rendered-crawl bench's CPU split (bench/suites/crawl-render.ts): user + system time of the crawler's node process
 * and of everything under it (Chromium's processes), from /proc, so the section says which side limits the rate.
 * Each process's last reading counts; a process that ends between two samples loses at most one interval's time.
 */
import fs from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Reading {
  ppid: number;
  comm: string;
  ticks: number;
}

function read(pid: string): Reading | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parentheses: the fields after it start after the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { ppid: Number(fields[1]), comm: stat.slice(stat.indexOf('(') + 1, close), ticks };
  } catch {
    return null;
  }
}

/** Samples every `everyMs` until `stop`, which gives the CPU seconds of the crawler and of its descendants. */
export function sampleCrawlerCpu(everyMs = 200): { stop(): { crawlerS: number; browserS: number } } {
  if (!fs.existsSync('/proc/self/stat')) return { stop: () => ({ crawlerS: NaN, browserS: NaN }) };
  const last = new Map<number, { isCrawler: boolean; ticks: number }>();
  const sample = (): void => {
    const all = new Map<number, Reading>();
    for (const name of fs.readdirSync('/proc')) {
      const reading = /^\d+$/.test(name) ? read(name) : null;
      if (reading) all.set(Number(name), reading);
    }
    const children = new Map<number, number[]>();
    for (const [pid, { ppid }] of all) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    // The crawler is the node process under each `time` child of this process; Chromium's processes are under it.
    const timers = (children.get(process.pid) ?? []).filter((pid) => all.get(pid)?.comm === 'time');
    for (const crawler of timers.flatMap((pid) => children.get(pid) ?? [])) {
      const stack = [crawler];
      while (stack.length > 0) {
        const pid = stack.pop() as number;
        last.set(pid, { isCrawler: pid === crawler, ticks: (all.get(pid) as Reading).ticks });
        stack.push(...(children.get(pid) ?? []));
      }
    }
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      let crawler = 0;
      let browser = 0;
      for (const { isCrawler, ticks } of last.values()) {
        if (isCrawler) crawler += ticks;
        else browser += ticks;
      }
      return { crawlerS: crawler / TICKS_PER_SECOND, browserS: browser / TICKS_PER_SECOND };
    },
  };
}
