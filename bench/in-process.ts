/**
 * The same run without a command line or Playwright around it: a Node process that imports the
 * compiled package and calls `runConformance` (the programmatic API) on a target file. Same engine,
 * same checks, same requests and verdict as the command; what separates the two walls is the
 * process start-up and Playwright's runner and worker. Timed from spawn to exit like every contender;
 * the process also prints how long the import and the run took.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distIndex } from './commands.ts';
import type { ServedTarget } from './measure.ts';
import type { ContenderRun } from './side-by-side.ts';
import { ROOT, SEED } from './root.ts';
import { measure } from './spawn.ts';

/** Source of the measured process: import, run, one JSON line. */
const SCRIPT = `
const t0 = performance.now();
const { runConformance } = await import(process.env.BENCH_DIST_INDEX);
const t1 = performance.now();
const report = await runConformance({ target: process.env.BENCH_TARGET_FILE, seed: Number(process.env.BENCH_SEED) });
const t2 = performance.now();
process.stdout.write(JSON.stringify({ importMs: t1 - t0, runMs: t2 - t1, verdict: report.verdict, requests: report.run.requests, failedChecks: report.checks.filter((c) => c.status === 'fail').length }) + '\\n');
`;

export async function runInProcess(target: ServedTarget, capMs: number, seed = SEED): Promise<ContenderRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-inprocess-'));
  const file = join(dir, 'target.yaml');
  writeFileSync(file, target.yaml);
  try {
    const m = await measure(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      capMs,
      env: { ...target.env, BENCH_DIST_INDEX: pathToFileURL(distIndex()).href, BENCH_TARGET_FILE: file, BENCH_SEED: String(seed) },
    });
    const last = m.stdout.map((l) => l.line).filter((l) => l.startsWith('{')).pop();
    const base: ContenderRun = { wallMs: m.wallMs, exitCode: m.code, timedOut: m.timedOut, ...(m.cpuS !== undefined ? { cpuS: m.cpuS } : {}) };
    if (!last) return { ...base, problem: `no result line (exit ${m.code}${m.timedOut ? ', killed at the cap' : ''}): ${m.stderr.trim().split('\n').slice(-2).join(' / ').slice(0, 300)}` };
    const r = JSON.parse(last) as { importMs: number; runMs: number; verdict: string; requests: number; failedChecks: number };
    return { ...base, verdict: r.verdict, requests: r.requests, failures: r.failedChecks, split: { importMs: r.importMs, runMs: r.runMs } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
