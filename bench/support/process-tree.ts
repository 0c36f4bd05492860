/**
 * The memory of a benchmark's child processes with all of theirs (a crawler and the Chromium it starts), sampled
 * from /proc: proportional set size (shared pages split between the processes sharing them, so Chromium's many
 * processes are not counted many times over), summed over the tree under each `/usr/bin/time` child of this process.
 */
import fs from 'node:fs';

interface Proc {
  ppid: number;
  comm: string;
}

function processes(): Map<number, Proc> {
  const all = new Map<number, Proc>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // comm may hold spaces and parentheses: the fields after it start after the last ')'.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      all.set(Number(name), { ppid: Number(fields[1]), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // The process ended while it was being read.
    }
  }
  return all;
}

const pssKb = (pid: number): number => {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
};

/** The summed PSS (kB) of the trees under this process's `time` children. */
function timedTreesKb(): number {
  const all = processes();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of all) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const roots = (children.get(process.pid) ?? []).filter((pid) => all.get(pid)?.comm === 'time');
  let total = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    total += pssKb(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples every `everyMs` until `stop`, which gives the peak in MB (NaN where /proc has no smaps_rollup). */
export function samplePeakTreeMemory(everyMs = 500): { stop(): number } {
  if (!fs.existsSync('/proc/self/smaps_rollup')) return { stop: () => NaN };
  let peakKb = 0;
  const timer = setInterval(() => (peakKb = Math.max(peakKb, timedTreesKb())), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(peakKb / 1024);
    },
  };
}
