/**
 * Peak resident memory of a process tree, sampled from /proc (Linux only). The suite runs as several
 * processes at once (tsx's launcher, the CLI, Playwright's runner, its worker, esbuild's service), so
 * the peak of their SUM is what a CI machine has to hold; GNU time's "Maximum resident set size" is
 * only the largest single process. Sampling can miss a peak shorter than the interval.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const PAGE_KB = 4; // x86-64 and arm64 Linux page size used by /proc/PID/statm

export interface TreeMemory {
  /** Highest sum of resident memory of the tree seen in one sample, KiB. */
  peakSumKb: number;
  /** Highest number of live processes seen in one sample. */
  peakProcesses: number;
  samples: number;
  /** Distinct processes seen whose command line holds `countCommand` (e.g. Playwright workers). */
  counted: number;
}

export function procAvailable(): boolean {
  return process.platform === 'linux' && existsSync('/proc/self/statm');
}

function children(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
      } catch {
        // thread gone
      }
    }
  } catch {
    // process gone
  }
  return out;
}

function rssKb(pid: number): number {
  try {
    const resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(resident) ? resident * PAGE_KB : 0;
  } catch {
    return 0;
  }
}

/** Descendants of `root` (not root itself), bounded in depth and count. */
function descendants(root: number): number[] {
  const seen: number[] = [];
  let frontier = [root];
  for (let depth = 0; depth < 8 && frontier.length > 0 && seen.length < 256; depth++) {
    const next: number[] = [];
    for (const p of frontier) next.push(...children(p));
    seen.push(...next);
    frontier = next;
  }
  return seen;
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Samples the tree under `root` every `intervalMs` until stop() is called. `includeRoot` false skips
 * the root itself (e.g. /usr/bin/time, which only waits). Processes whose command line holds
 * `countCommand` are counted once each (a process shorter-lived than the interval can be missed).
 */
export function watchTree(root: number, intervalMs = 50, includeRoot = true, countCommand = 'workerProcessEntry'): { stop(): TreeMemory } {
  const m: TreeMemory = { peakSumKb: 0, peakProcesses: 0, samples: 0, counted: 0 };
  if (!procAvailable()) return { stop: () => m };
  const counted = new Set<number>();
  const sample = () => {
    const pids = descendants(root);
    if (includeRoot) pids.push(root);
    let sum = 0;
    for (const p of pids) sum += rssKb(p);
    // Read every time: a process just forked still shows its parent's command line until it execs.
    for (const p of pids) if (!counted.has(p) && counted.size < 4096 && commandLine(p).includes(countCommand)) counted.add(p);
    m.counted = counted.size;
    m.samples++;
    if (sum > m.peakSumKb) m.peakSumKb = sum;
    if (pids.length > m.peakProcesses) m.peakProcesses = pids.length;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return m;
    },
  };
}
