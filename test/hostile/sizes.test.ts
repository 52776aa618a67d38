import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runScript } from '../support/harness.ts';
import { HOSTILE_KEYS, startHostile, writeTarget, type Action, type HostileServer } from '../support/hostile-server.ts';
import { RECORDING_BOUNDS } from '../../core/http/recorder.ts';

// A target's answer of any size ends in a report of bounded size from a run of bounded
// memory. A page of a million empty objects (3 MB: 7 missing fields each, 7 million schema
// violations if every one were kept) and a cursor of 7 MB followed by every traversal.
test.describe.configure({ mode: 'parallel' });

const TIME = '/usr/bin/time';
const REPORT_LIMIT = 10 * 1024 * 1024;
const PEAK_LIMIT_KB = 512 * 1024;

const servers: HostileServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The command line under GNU time: its exit, and the largest resident set of any of its processes. */
async function measuredRun(
  target: string,
  reportDir: string,
): Promise<{ code: number | null; peakKb: number; stdout: string }> {
  const run = await runScript(
    'cli/conformance.ts',
    ['--target', target, '--report-dir', reportDir, '--timeout', '30000'],
    { env: { ...HOSTILE_KEYS }, timeoutMs: 300_000, wrapper: [TIME, '-f', 'PEAK_KB=%M'] },
  );
  return { code: run.code, peakKb: Number(/PEAK_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN), stdout: run.stdout };
}

/** The report files' size; evidence.har has its own bound (core/http/recorder.ts RECORDING_BOUNDS), held below. */
function sizeOf(dir: string): number {
  const har = join(dir, 'evidence.har');
  if (existsSync(har)) expect(statSync(har).size).toBeLessThan(RECORDING_BOUNDS.runBytes * 2);
  return readdirSync(dir)
    .filter((f) => f !== 'evidence.har')
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

const MILLION_OBJECTS = `{"object":"list","data":[${'{},'.repeat(999_999)}{}],"first_id":null,"last_id":null,"has_more":false}`;
const LONG_CURSOR = `cfile_${'A'.repeat(7 * 1024 * 1024)}`;
/** A page of 26,000 files, 7.6 MB: under the body cap (8 MiB), over the values the suite parses. */
const EIGHT_MB_PAGE = JSON.stringify({
  object: 'list',
  data: Array.from({ length: 26_000 }, (_, i) => ({
    id: `cfile_${Buffer.from(`f${i}`).toString('base64url')}`,
    object: 'container.file',
    container_id: 'cntr_hostile',
    bytes: 1,
    created_at: 1_700_000_000,
    path: `${'x'.repeat(150)}${i}`,
    source: 'user',
  })),
  first_id: null,
  last_id: null,
  has_more: false,
});

// What a run keeps of each response is bounded, so the whole run (every check, no --grep) stays
// within 512 MB per process whatever the body: 100,000 nested arrays in 200 KB, 2 MB of them, a
// million {} in 3 MB, an 8 MB page, a 7 MB cursor. A run of some of the checks holds no more than the
// whole run on the same body: only whole runs are measured.
const CASES: Array<{ name: string; files: Action; says: RegExp }> = [
  {
    name: 'the whole run: 100,000 nested arrays in 200 KB',
    files: { kind: 'raw', body: '['.repeat(100_000) + ']'.repeat(100_000) },
    says: /nested deeper than 512 levels, not read/,
  },
  {
    name: 'the whole run: 2 MB of nested arrays',
    files: { kind: 'raw', body: '['.repeat(1_000_000) + ']'.repeat(1_000_000) },
    says: /nested deeper than 512 levels, not read/,
  },
  {
    name: 'the whole run: a page of a million empty objects',
    files: { kind: 'raw', body: MILLION_OBJECTS },
    says: /more than 50000 values, not read/,
  },
  {
    name: 'the whole run: an 8 MB page',
    files: { kind: 'raw', body: EIGHT_MB_PAGE },
    says: /more than 50000 values, not read/,
  },
  {
    name: 'the whole run: a 7 MB cursor',
    files: {
      kind: 'raw',
      body: JSON.stringify({ object: 'list', data: [], first_id: null, last_id: LONG_CURSOR, has_more: true }),
    },
    says: /over the 65536 the suite sends; not sent/,
  },
];

for (const { name, files, says } of CASES) {
  test(`${name}: a report under 10 MB, every process under 512 MB`, async () => {
    test.skip(!existsSync(TIME), `${TIME} (GNU time) is not installed: apt-get install time`);
    test.setTimeout(360_000);
    const server = await startHostile((req) =>
      req.url.includes('/files') ? files : { kind: 'json', body: { data: [], has_more: false } },
    );
    servers.push(server);
    const reportDir = join(mkdtempSync(join(tmpdir(), 'sizes-')), 'report');
    const run = await measuredRun(writeTarget(server.baseUrl), reportDir);
    expect(run.code, run.stdout.slice(-2000)).not.toBeNull();
    expect(existsSync(join(reportDir, 'report.json')), run.stdout.slice(-2000)).toBe(true);
    expect(sizeOf(reportDir)).toBeLessThan(REPORT_LIMIT);
    expect(run.stdout.length).toBeLessThan(REPORT_LIMIT);
    expect(run.peakKb).toBeLessThan(PEAK_LIMIT_KB);
    // What was not read is said, as a finding or a reason, not held.
    expect(readFileSync(join(reportDir, 'report.json'), 'utf8')).toMatch(says);
  });
}
