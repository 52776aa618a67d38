/**
 * The same run without a command line or Playwright around it: a Node process that imports the
 * compiled package and calls `runConformance` (the programmatic API) on a target file. Same engine,
 * same checks, same requests and verdict as the command; what separates the two walls is the
 * process start-up and Playwright's runner and worker. The process prints how long the import and the
 * run took, and what the run said.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distIndex, nodeOfSuite } from './commands.ts';
import { tail, type Ran } from './run.ts';

const SCRIPT = `
const [index, target, seed] = process.argv.slice(2);
const t0 = performance.now();
const { runConformance } = await import(index);
const t1 = performance.now();
const report = await runConformance({ target, seed: Number(seed) });
const t2 = performance.now();
process.stdout.write(JSON.stringify({ importMs: t1 - t0, runMs: t2 - t1, verdict: report.verdict, requests: report.run.requests, failedChecks: report.checks.filter((c) => c.status === 'fail').length }) + '\\n');
`;

/** The command line of the in-process run on `targetFile` (the script is written into `dir`). */
export function inProcessArgv(dir: string, targetFile: string, seed: number): string[] {
  const script = join(dir, 'in-process.mjs');
  writeFileSync(script, SCRIPT);
  return [nodeOfSuite(), script, pathToFileURL(distIndex()).href, targetFile, String(seed)];
}

export interface InProcessOutcome {
  verdict: string;
  requests: number;
  failedChecks: number;
  importMs: number;
  runMs: number;
}

export function readInProcess(r: Ran): InProcessOutcome | { problem: string } {
  const last = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!last)
    return { problem: `no result line (exit ${r.code}${r.timedOut ? ', killed at the cap' : ''}): ${tail(r)}` };
  return JSON.parse(last) as InProcessOutcome;
}
