import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runScript } from '../support/harness.ts';
import { HOSTILE_KEYS, startHostile, writeTarget, type Action, type HostileServer } from '../support/hostile-server.ts';

// Issue 20: a target's answer of any size ends in a report of bounded size from a run of bounded
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
async function measuredRun(target: string, reportDir: string, args: string[]): Promise<{ code: number | null; peakKb: number; stdout: string }> {
  const run = await runScript('cli/conformance.ts', ['--target', target, '--report-dir', reportDir, '--timeout', '5000', ...args], { env: { ...HOSTILE_KEYS }, timeoutMs: 150_000, wrapper: [TIME, '-f', 'PEAK_KB=%M'] });
  return { code: run.code, peakKb: Number(/PEAK_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN), stdout: run.stdout };
}

function sizeOf(dir: string): number {
  return readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

const MILLION_OBJECTS = `{"object":"list","data":[${'{},'.repeat(999_999)}{}],"first_id":null,"last_id":null,"has_more":false}`;
const LONG_CURSOR = 'cfile_' + 'A'.repeat(7 * 1024 * 1024);

const CASES: Array<{ name: string; files: Action; grep: string }> = [
  { name: 'a page of a million empty objects', files: { kind: 'raw', body: MILLION_OBJECTS }, grep: ' (files\\.response\\.schema|files\\.list\\.path-order) ' },
  {
    name: 'a 7 MB cursor',
    files: { kind: 'raw', body: JSON.stringify({ object: 'list', data: [], first_id: null, last_id: LONG_CURSOR, has_more: true }) },
    grep: ' (files\\.response\\.schema|files\\.pagination\\.next-page|files\\.property\\.traversal) ',
  },
];

for (const { name, files, grep } of CASES) {
  test(`${name}: a report under 10 MB, every process under 512 MB`, async () => {
    test.skip(!existsSync(TIME), `${TIME} (GNU time) is not installed: apt-get install time`);
    test.slow();
    const server = await startHostile((req) => (req.url.includes('/files') ? files : { kind: 'json', body: { data: [], has_more: false } }));
    servers.push(server);
    const reportDir = join(mkdtempSync(join(tmpdir(), 'sizes-')), 'report');
    const run = await measuredRun(writeTarget(server.baseUrl), reportDir, ['--grep', grep]);
    expect(run.code, run.stdout.slice(-2000)).not.toBeNull();
    expect(existsSync(join(reportDir, 'report.json')), run.stdout.slice(-2000)).toBe(true);
    expect(sizeOf(reportDir)).toBeLessThan(REPORT_LIMIT);
    expect(run.stdout.length).toBeLessThan(REPORT_LIMIT);
    expect(run.peakKb).toBeLessThan(PEAK_LIMIT_KB);
  });
}
