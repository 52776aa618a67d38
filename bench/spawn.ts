/**
 * Runs one measured process: wall time from spawn to exit, stdout lines with the time they arrived,
 * CPU time and the largest single process's peak RSS from GNU time (when /usr/bin/time exists), the
 * tree's peak RSS sampled from /proc, and a hard wall-time cap (the process group is killed).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchTree } from './proc-tree.ts';

export const GNU_TIME = '/usr/bin/time';

export interface TimedLine {
  /** ms since spawn */
  t: number;
  line: string;
}

export interface Measured {
  /** Exit code, or null when killed (see timedOut). */
  code: number | null;
  timedOut: boolean;
  /** Spawn to exit, measured by the bench. */
  wallMs: number;
  /** performance.now() of the spawn (to relate server-side timestamps). */
  startedAt: number;
  stdout: TimedLine[];
  stderr: string;
  /** From GNU time -v: user + system CPU seconds of the process and every child it waited for. */
  cpuS?: number;
  /** From GNU time -v: "Maximum resident set size" (the largest single process of the tree), KiB. */
  maxRssSingleKb?: number;
  /** Peak of the sum of the tree's resident memory, sampled from /proc every 50 ms, KiB. */
  peakTreeKb?: number;
  peakProcesses?: number;
  /** Playwright worker processes seen in the tree (sampled from /proc). */
  workers?: number;
}

export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string>;
  capMs: number;
  /** Wrap in /usr/bin/time -v when available. */
  timed?: boolean;
  /** Keep at most this many stdout lines (the rest are counted, not kept). */
  maxLines?: number;
}

export function gnuTimeAvailable(): boolean {
  return existsSync(GNU_TIME);
}

export function measure(command: string, args: readonly string[], opts: SpawnOptions): Promise<Measured> {
  const useTime = (opts.timed ?? true) && gnuTimeAvailable();
  const tmp = useTime ? mkdtempSync(join(tmpdir(), 'bench-time-')) : '';
  const timeFile = join(tmp, 'time.txt');
  const [cmd, argv] = useTime ? [GNU_TIME, ['-v', '-o', timeFile, command, ...args]] : [command, [...args]];
  const startedAt = performance.now();
  const child = spawn(cmd, argv, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: the cap kills the whole tree
  });
  const watcher = child.pid !== undefined ? watchTree(child.pid, 50, !useTime) : undefined;
  const stdout: TimedLine[] = [];
  const maxLines = opts.maxLines ?? 20_000;
  let partial = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const t = performance.now() - startedAt;
    partial += chunk;
    let i: number;
    while ((i = partial.indexOf('\n')) >= 0) {
      if (stdout.length < maxLines) stdout.push({ t, line: partial.slice(0, i) });
      partial = partial.slice(i + 1);
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 200_000) stderr += chunk;
  });
  let timedOut = false;
  const killer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }, opts.capMs);
  return new Promise((resolve, reject) => {
    child.on('error', (e) => {
      clearTimeout(killer);
      watcher?.stop();
      reject(e);
    });
    child.on('close', (code) => {
      const wallMs = performance.now() - startedAt;
      clearTimeout(killer);
      const mem = watcher?.stop();
      if (partial) stdout.push({ t: wallMs, line: partial });
      const m: Measured = { code, timedOut, wallMs, startedAt, stdout, stderr };
      if (mem && mem.samples > 0) {
        m.peakTreeKb = mem.peakSumKb;
        m.peakProcesses = mem.peakProcesses;
        m.workers = mem.counted;
      }
      if (useTime) {
        try {
          const text = readFileSync(timeFile, 'utf8');
          const user = /User time \(seconds\): ([\d.]+)/.exec(text)?.[1];
          const sys = /System time \(seconds\): ([\d.]+)/.exec(text)?.[1];
          const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1];
          if (user !== undefined && sys !== undefined) m.cpuS = Number(user) + Number(sys);
          if (rss !== undefined) m.maxRssSingleKb = Number(rss);
          // GNU time reports the command's status on its own line; its exit code is the command's.
        } catch {
          // killed before GNU time wrote its file
        }
        rmSync(tmp, { recursive: true, force: true });
      }
      resolve(m);
    });
  });
}
