import { expect, test } from '@playwright/test';
import { CONSECUTIVE_FAILURE_LIMIT } from '../../core/http/client.ts';
import { DEFAULTS } from '../../core/run/run-settings.ts';
import { NodeTransport, TransportError } from '../../core/http/transport.ts';
import { runCli } from '../support/harness.ts';
import {
  HOSTILE_KEYS,
  stackLines,
  startHostile,
  writeTarget,
  type Action,
  type HostileServer,
} from '../support/hostile-server.ts';

// 200 answers whose body is not what section 4 promises are the target's failures (exit 1), named in
// the report; a body that never ends is cut at the cap while streaming (exit 2: it cannot be judged).
test.describe.configure({ mode: 'parallel' });

/** cli/preflight.ts sends one request per operation (files, models, interns) before the checks. */
const PREFLIGHT_REQUESTS = 3;

const servers: HostileServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function against(action: Action, args: string[], timeoutMs = 90_000) {
  const server = await startHostile(action);
  servers.push(server);
  const run = await runCli(['--target', writeTarget(server.baseUrl), '--timeout', '1000', ...args], {
    env: { ...HOSTILE_KEYS },
    timeoutMs,
  });
  return { server, run };
}

/** The three "response is a list / a model" checks: one per operation, each reads the whole body. */
const SCHEMA_CHECKS = ['--grep', ' (files|models|interns)\\.response\\.schema '];

const CASES: Array<{ name: string; action: Action; says: RegExp }> = [
  { name: 'an empty body', action: { kind: 'raw', body: '' }, says: /body is not JSON \(empty body\)/ },
  {
    name: 'truncated JSON',
    action: { kind: 'raw', body: '{"object":"list","data":[{"id":"cfile_' },
    says: /body is not JSON/,
  },
  { name: 'a JSON array where an object is expected', action: { kind: 'json', body: [] }, says: /\bobject\b/ },
];

for (const { name, action, says } of CASES) {
  test(`200 with ${name} fails the schema checks, exit 1, one line each`, async () => {
    const { run } = await against(action, SCHEMA_CHECKS);
    expect(stackLines(run)).toEqual([]);
    expect(run.code).toBe(1);
    expect(run.report?.verdict).toBe('non-conformant');
    const ran = run.report!.checks.filter((c) => c.reason !== 'not selected in this run');
    expect(ran).toHaveLength(3);
    for (const c of ran) {
      expect(c.status).toBe('fail');
      expect(c.reason).toMatch(says);
      // Each failing requirement is said once, under its own level, naming the check that saw it; a check
      // whose responses carried a finding said above says so without FAIL.
      expect(run.stdout).toMatch(
        new RegExp(
          `^  (FAIL  MUST \\S+ — .*\\(check ${c.checkId.replace(/\./g, '\\.')}\\)|note  ${c.checkId.replace(/\./g, '\\.')} — )`,
          'm',
        ),
      );
    }
  });
}

test('200 with an HTML page (a proxy error page): the whole suite ends, exit 1, failures name the media type', async () => {
  // The whole suite, every check failing: room for a loaded machine.
  test.setTimeout(420_000);
  const html =
    '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';
  const { run } = await against(
    { kind: 'raw', body: html, headers: { 'content-type': 'text/html; charset=utf-8' } },
    [],
    400_000,
  );
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(1);
  expect(run.report?.verdict).toBe('non-conformant');
  const failed = run.report!.requirements.filter((r) => r.status === 'fail');
  expect(failed.map((r) => r.id)).toContain('general.json-media-type');
  expect(run.report!.requirements.find((r) => r.id === 'general.json-media-type')?.reason).toMatch(
    /Content-Type is "text\/html; charset=utf-8", expected application\/json/,
  );
  // An HTML answer is an answer: the run is never stopped early for it.
  expect(run.stdout).not.toContain('not sent: the target stopped answering');
  // Every check of the suite ran; the annotation keeps what the run took.
  test.info().annotations.push({
    type: 'bound',
    description: `${run.ms} ms for ${run.report!.checks.length} checks, ${run.report!.run.requests} requests`,
  });
});

test('an endless body is cut at the cap while streaming: the server stops writing when the client goes, exit 2', async () => {
  // Endless from the very first request: the preflight counts each as an answer (reachable), the checks
  // report the cap, and the run stops after CONSECUTIVE_FAILURE_LIMIT such requests; the MUST
  // requirements left unjudged make it incomplete.
  // One check at a time: the bodies that stop the run are the first three requests, each its own check's.
  const { server, run } = await against({ kind: 'endless' }, ['--concurrency', '1']);
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  const cap = `response body larger than the cap of ${DEFAULTS.bodyCapBytes} bytes; reading stopped`;
  expect(run.report?.verdict).toBe('incomplete');
  expect(run.report?.run.incomplete).toMatch(
    /^\d+ MUST requirement\(s\) not judged: the target stopped answering \(3 requests in a row without a usable answer/,
  );
  expect(run.report?.run.incomplete).toContain(cap);
  expect(run.report!.checks.filter((c) => c.status === 'fail')).toEqual([]);
  const errors = run.report!.checks.filter((c) => c.status === 'error');
  expect(errors).toHaveLength(CONSECUTIVE_FAILURE_LIMIT);
  for (const c of errors) expect(c.reason).toContain(cap);
  expect(run.stdout).toMatch(/^ {2}skip {2}(?:\S+|\d+ checks) — not sent: the target stopped answering/m);
  expect(server.received).toHaveLength(PREFLIGHT_REQUESTS + CONSECUTIVE_FAILURE_LIMIT);
  // Every endless response ended because the client went away, after at most the cap plus what the
  // sockets buffer: the suite never read (nor held) more than that.
  expect(server.sent).toHaveLength(PREFLIGHT_REQUESTS + CONSECUTIVE_FAILURE_LIMIT);
  await expect.poll(() => server.sent.filter((s) => !s.clientClosed).length, { timeout: 5_000 }).toBe(0);
  for (const s of server.sent) expect(s.bytes).toBeLessThan(DEFAULTS.bodyCapBytes + 64 * 1024 * 1024);
  // Each body was cut where the client went, after the cap was reached (a response cut before the cap
  // would be another failure than the one reported), and nothing was written after it.
  for (const s of server.sent) expect(s.bytes).toBeGreaterThanOrEqual(DEFAULTS.bodyCapBytes);
  expect(server.sent.map((s) => s.bytes)).toEqual(server.sent.map((s) => s.bytesWhenClosed));
});

test('the node transport holds at most the cap of an endless body in memory', async () => {
  const server = await startHostile({ kind: 'endless' });
  servers.push(server);
  const cap = 1024 * 1024;
  const transport = new NodeTransport({ timeoutMs: 10_000, bodyCapBytes: cap });
  try {
    const before = process.memoryUsage().arrayBuffers;
    for (let i = 0; i < 5; i++) {
      const error = await transport.get(new URL(`${server.baseUrl}/interns`), {}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).message).toBe(
        `response body larger than the cap of ${cap} bytes; reading stopped`,
      );
      expect((error as TransportError).answered).toBe(true);
    }
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
    expect(server.sent).toHaveLength(5);
    await expect.poll(() => server.sent.filter((s) => !s.clientClosed).length, { timeout: 5_000 }).toBe(0);
    for (const s of server.sent) expect(s.bytes).toBeLessThan(cap + 64 * 1024 * 1024);
  } finally {
    await transport.close();
  }
});
