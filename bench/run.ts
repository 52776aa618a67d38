/**
 * How the bench runs processes. Once, to its end, for what the process says (its exit code, its
 * output, its report): the verdict. And side by side under hyperfine (Debian's `hyperfine` package) for
 * the timing: runs, mean, median, min–max, user and system CPU and the JSON export are hyperfine's,
 * so the bench keeps no statistics and no timing loop of its own.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Ran {
  /** Exit code, or null when killed (see timedOut). */
  code: number | null;
  timedOut: boolean;
  /** Spawn to exit of this one run (not a timing: the timing is hyperfine's). */
  wallMs: number;
  stdout: string;
  stderr: string;
}

/** Output kept per stream: a peer's transaction list fits, a runaway process does not fill memory. */
const OUTPUT_CAP = 4 * 1024 * 1024;

/**
 * Runs `argv` to its end, asynchronously: the servers the bench starts live in this process and must
 * go on answering. At `capMs` the process group is killed. `show` passes the output to stderr.
 */
export function runOnce(
  argv: readonly string[],
  opts: { cwd: string; env?: Record<string, string>; capMs: number; show?: boolean },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', opts.show ? 2 : 'pipe', opts.show ? 2 : 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => void (stdout.length < OUTPUT_CAP && (stdout += d)));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => void (stderr.length < OUTPUT_CAP && (stderr += d)));
    let timedOut = false;
    const killer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.capMs);
    child.on('error', (e) => {
      clearTimeout(killer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, timedOut, wallMs: performance.now() - started, stdout, stderr });
    });
  });
}

/** The last lines of a run's output, for a problem said in one line. */
export function tail(r: Ran, lines = 2): string {
  return (r.stderr.trim() || r.stdout.trim())
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('npm warn'))
    .slice(-lines)
    .join(' / ')
    .slice(0, 300);
}

/** One contender's timing as hyperfine's JSON export gives it (seconds). */
export interface Timing {
  command: string;
  mean: number;
  stddev: number | null;
  median: number;
  min: number;
  max: number;
  user: number;
  system: number;
  times: number[];
  exit_codes: Array<number | null>;
}

export function hyperfineVersion(): string | undefined {
  const r = spawnSync('hyperfine', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().replace(/^hyperfine /, '') : undefined;
}

/** An argument as hyperfine's `--shell=none` splits a command line (POSIX shell words). */
function quote(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * Times the contenders side by side in one hyperfine run: `runs` runs each, no shell, a failing exit
 * code recorded rather than fatal (a contender that finds failures exits 1). Hyperfine's progress goes
 * to stderr; its JSON export goes to `json` and is returned.
 */
export async function hyperfine(
  contenders: ReadonlyArray<{ name: string; argv: readonly string[] }>,
  o: { runs: number; cwd: string; env: Record<string, string>; json: string; capMs: number },
): Promise<Timing[]> {
  const args = [
    '--runs',
    String(o.runs),
    '--shell=none',
    '--ignore-failure',
    '--export-json',
    o.json,
    ...contenders.flatMap((c) => ['--command-name', c.name, c.argv.map(quote).join(' ')]),
  ];
  const r = await runOnce(['hyperfine', ...args], { cwd: o.cwd, env: o.env, capMs: o.capMs, show: true });
  if (r.code !== 0) throw new Error(`hyperfine ${r.timedOut ? 'was killed at its cap' : `ended with exit ${r.code}`}`);
  return (JSON.parse(readFileSync(o.json, 'utf8')) as { results: Timing[] }).results;
}
