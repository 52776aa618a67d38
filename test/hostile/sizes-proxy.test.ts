import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startDelayProxy, type DelayProxy } from '../../bench/delay-proxy.ts';
import { runScript } from '../support/harness.ts';
import { HOSTILE_KEYS, startHostile, writeTarget, type HostileServer } from '../support/hostile-server.ts';

// A 7 MB cursor through a proxy that delays every answer (bench/delay-proxy.ts, a deployment far away):
// the checks wait longer on each request, so more of them hold what the target sent at once; the run
// still stays within 512 MB per process (rule "Hostile input"), as test/hostile/sizes.test.ts measures it.
const TIME = '/usr/bin/time';
const PEAK_LIMIT_KB = 512 * 1024;
const LONG_CURSOR = `cfile_${'A'.repeat(7 * 1024 * 1024)}`;

const closers: Array<HostileServer | DelayProxy> = [];
test.afterAll(async () => {
  await Promise.all(closers.splice(0).map((s) => s.close()));
});

test('the whole run: a 7 MB cursor through a delaying proxy, every process under 512 MB', async () => {
  test.skip(!existsSync(TIME), `${TIME} (GNU time) is not installed: apt-get install time`);
  test.setTimeout(360_000);
  const body = JSON.stringify({ object: 'list', data: [], first_id: null, last_id: LONG_CURSOR, has_more: true });
  const server = await startHostile((req) =>
    req.url.includes('/files') ? { kind: 'raw', body } : { kind: 'json', body: { data: [], has_more: false } },
  );
  const proxy = await startDelayProxy(server.baseUrl, 50);
  closers.push(server, proxy);
  const reportDir = join(mkdtempSync(join(tmpdir(), 'sizes-proxy-')), 'report');
  const run = await runScript(
    'cli/conformance.ts',
    ['--target', writeTarget(`${proxy.origin}/v1`), '--report-dir', reportDir, '--timeout', '5000'],
    { env: { ...HOSTILE_KEYS }, timeoutMs: 300_000, wrapper: [TIME, '-f', 'PEAK_KB=%M'] },
  );
  const peakKb = Number(/PEAK_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN);
  console.log(`peak ${peakKb} kB in ${run.ms} ms, ${proxy.count} requests through the proxy`);
  expect(run.code, run.stdout.slice(-2000)).not.toBeNull();
  expect(existsSync(join(reportDir, 'report.json')), run.stdout.slice(-2000)).toBe(true);
  expect(proxy.count).toBeGreaterThan(0);
  expect(peakKb).toBeLessThan(PEAK_LIMIT_KB);
});
