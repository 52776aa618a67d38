import { expect, test } from '@playwright/test';
import { parseTarget } from '../core/target.ts';
import { startReference } from '../reference/server.ts';
import { rejectedKeyTarget, startHtmlTarget } from '../bench/failing-targets.ts';
import { PHASES, roleOf, timelineOf, type ProcessRecord } from '../bench/probe.ts';
import type { Measured } from '../bench/spawn.ts';

// The bench's own parts that its figures rest on: which process is which, how a run is cut into
// phases, and that its failing targets fail the way the figures say (not by a broken target file).

test('the probe names each process of a run by its command line', () => {
  expect(roleOf(['/usr/bin/node', '/usr/lib/node_modules/npm/bin/npm-cli.js', 'run', 'conformance'])).toBe('launcher');
  expect(roleOf(['/usr/bin/node', '/repo/node_modules/tsx/dist/cli.mjs', 'cli/conformance.ts'])).toBe('launcher');
  expect(roleOf(['/usr/bin/node', '/repo/cli/conformance.ts', '--seed', '1'])).toBe('cli');
  expect(roleOf(['/usr/bin/node', '/repo/dist/cli/main.js'])).toBe('cli');
  expect(roleOf(['/usr/bin/node', '/repo/node_modules/@playwright/test/cli.js', 'test', '-c', 'x'])).toBe('runner');
  expect(roleOf(['/usr/bin/node', '/repo/node_modules/playwright/lib/worker/workerProcessEntry.js'])).toBe('worker');
});

test('a timeline is cut into phases that add up from spawn to exit', () => {
  const spawnAbs = performance.timeOrigin + 1000;
  const at = (ms: number) => spawnAbs + ms;
  const none = { count: 0, first: 0, last: 0 };
  const rec = (argv: string[], start: number, exit: number, http = none, ask = none): ProcessRecord => ({ pid: 1, ppid: 0, argv, start: at(start), exit: at(exit), channels: { 'http.client.request.start': http, 'net.client.socket': ask } });
  const records = [
    rec(['node', '/r/node_modules/tsx/dist/cli.mjs'], 5, 2990),
    rec(['node', '/r/cli/conformance.ts'], 100, 2980, { count: 503, first: at(900), last: at(2100) }),
    rec(['node', '/r/node_modules/@playwright/test/cli.js', 'test'], 150, 2900),
    rec(['node', '/r/node_modules/playwright/lib/worker/workerProcessEntry.js'], 1400, 2850, none, { count: 90, first: at(2000), last: at(2600) }),
  ];
  const m: Measured = { code: 0, timedOut: false, wallMs: 3000, startedAt: 1000, stdout: [{ t: 500, line: 'target: embedded reference at http://127.0.0.1:1/v1' }, { t: 2950, line: 'verdict: CONFORMANT' }], stderr: '' };
  const t = timelineOf(m, records, new Date(at(1000)).toISOString());
  expect(t.workers).toBe(1);
  expect(t.requests).toBe(503);
  expect(t.cliStart).toBeCloseTo(100, 0);
  const sequential = PHASES.filter((p) => !p.parallel).map((p) => p.of(t));
  expect(sequential.every((x) => x !== undefined && x >= 0)).toBe(true);
  expect(sequential.reduce((s, x) => s! + x!, 0)).toBeCloseTo(3000, 0);
  // Beside Playwright, in the command: imports and target 400 ms, checks loaded and preflight 500 ms
  // (engineReady from an ISO date: millisecond resolution), the checks 1100 ms, 100 ms of them after the first test asked.
  const beside = PHASES.filter((p) => p.parallel).map((p) => p.of(t)!);
  [400, 500, 1100, 100].forEach((ms, i) => expect(Math.abs(beside[i]! - ms), `phase ${i}: ${beside[i]} ms`).toBeLessThanOrEqual(1));
});

test('the HTML target answers every request with 200 text/html and is described by a valid target file', async () => {
  const reference = await startReference();
  const html = await startHtmlTarget(reference);
  try {
    const target = parseTarget(html.yaml, 'target.yaml', { env: html.env });
    expect(target.baseUrl).toBe(html.baseUrl);
    for (const path of ['/interns', '/containers/x/files?limit=1', '/nowhere']) {
      const res = await fetch(html.baseUrl + path, { headers: { authorization: `Bearer ${reference.keys.management}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<html>');
    }
  } finally {
    await html.close();
    await reference.close();
  }
});

test('the rejected-key target is the reference with a key it answers 401 to', async () => {
  const reference = await startReference();
  try {
    const t = rejectedKeyTarget(reference);
    const target = parseTarget(t.yaml, 'target.yaml', { env: t.env });
    expect(target.apiKey).not.toBe(reference.keys.management);
    const res = await fetch(`${reference.baseUrl}/interns`, { headers: { authorization: `Bearer ${target.apiKey}` } });
    expect(res.status).toBe(401);
  } finally {
    await reference.close();
  }
});
