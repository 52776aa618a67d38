/**
 * The floor: the suite's own requests (URL, method and Authorization header exactly as the reference
 * received them) sent again by a bare loop with Node's fetch, one after the other, each body read to
 * the end, with no checks. It runs as a fresh `node` process so that, like the suite, it is timed
 * from process start to exit; the loop's own time is reported beside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedRequest } from './capture.ts';
import { measure } from './spawn.ts';

export interface FloorRun {
  /** Spawn of `node` to exit. */
  processMs: number;
  /** First request sent to last body read, inside that process. */
  loopMs: number;
  requests: number;
  /** Requests that got an HTTP answer. */
  answered: number;
}

/** The loop the floor process runs (plain JavaScript for `node -e`: nothing to load but Node). */
const LOOP = `
(async () => {
  const reqs = JSON.parse(require('node:fs').readFileSync(process.env.FLOOR_FILE, 'utf8'));
  let answered = 0;
  const t0 = performance.now();
  for (const r of reqs) {
    const headers = { accept: 'application/json' };
    if (r.authorization !== undefined) headers.authorization = r.authorization;
    try {
      const res = await fetch(r.url, { method: r.method, headers, redirect: 'manual' });
      await res.arrayBuffer();
      answered++;
    } catch {}
  }
  process.stdout.write(JSON.stringify({ loopMs: performance.now() - t0, answered }) + '\\n');
})();
`;

export async function runFloor(captured: readonly CapturedRequest[], capMs = 120_000): Promise<FloorRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const file = join(dir, 'requests.json');
  writeFileSync(file, JSON.stringify(captured.map((c) => ({ method: c.method, url: c.origin + c.url, ...(c.authorization !== undefined ? { authorization: c.authorization } : {}) }))));
  try {
    const m = await measure(process.execPath, ['-e', LOOP], { cwd: dir, env: { FLOOR_FILE: file }, capMs, timed: false });
    const last = m.stdout.find((l) => l.line.startsWith('{'));
    if (m.code !== 0 || !last) throw new Error(`floor loop failed (exit ${m.code}): ${m.stderr.slice(0, 300)}`);
    const out = JSON.parse(last.line) as { loopMs: number; answered: number };
    return { processMs: m.wallMs, loopMs: out.loopMs, requests: captured.length, answered: out.answered };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
