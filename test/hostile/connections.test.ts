import { expect, test } from '@playwright/test';
import { CONSECUTIVE_FAILURE_LIMIT } from '../../core/http/client.ts';
import { runCli } from '../support/harness.ts';
import {
  firstThen,
  HOSTILE_KEYS,
  OK_JSON,
  stackLines,
  startHostile,
  stderrLines,
  writeTarget,
  type HostileServer,
  type Responder,
} from '../support/hostile-server.ts';

// Connections that break: refused after the preflight, reset in the middle of a body, bytes that are
// not HTTP. Each ends after a bounded number of requests with a named reason, never a stack trace. (Refused at the
// preflight, a closed port, is in test/safety.test.ts with the other refusals before a run.)
test.describe.configure({ mode: 'parallel' });

/** cli/preflight.ts sends one request per operation (files, models, interns) before the checks. */
const PREFLIGHT_REQUESTS = 3;

const servers: HostileServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function against(respond: Responder, onStart: (s: HostileServer) => void = () => {}) {
  let started: HostileServer | undefined;
  const server = await startHostile((req, i) => {
    // As soon as the last preflight answer is written out: the engine runs in the command's own
    // process and its first check follows the preflight within milliseconds.
    if (i === PREFLIGHT_REQUESTS - 1) {
      const whenSent = () => (started!.sent[i]?.ended ? onStart(started!) : setImmediate(whenSent));
      setImmediate(whenSent);
    }
    return respond(req, i);
  });
  started = server;
  servers.push(server);
  // One check at a time: the failures that stop the run are the first three requests, each its own
  // check's (at a higher concurrency, those in flight with them are sent too: test/hostile/unresponsive.test.ts).
  const run = await runCli(['--target', writeTarget(server.baseUrl), '--timeout', '1000', '--concurrency', '1'], {
    env: { ...HOSTILE_KEYS },
    timeoutMs: 90_000,
  });
  return { server, run };
}

test('a target that stops listening after the preflight: connection refused, the run stops, exit 2', async () => {
  const { server, run } = await against(firstThen(PREFLIGHT_REQUESTS, OK_JSON, OK_JSON), (s) => void s.stopListening());
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  // MUST requirements left unjudged because the target stopped answering: incomplete, not error.
  expect(run.report?.verdict).toBe('incomplete');
  expect(run.report?.run.incomplete).toMatch(
    /^\d+ MUST requirement\(s\) not judged: the target stopped answering \(3 requests in a row without a usable answer, last: GET \S+: connection refused\); nothing more is sent in this run$/,
  );
  expect(server.received).toHaveLength(PREFLIGHT_REQUESTS);
  const errors = run.report!.checks.filter((c) => c.status === 'error');
  expect(errors).toHaveLength(CONSECUTIVE_FAILURE_LIMIT);
  for (const c of errors) expect(c.reason).toMatch(/: connection refused$/);
  expect(run.report!.checks.filter((c) => c.status === 'fail')).toEqual([]);
  // The stop is named on the console by each check it cut short.
  expect(run.stdout).toMatch(
    /^ {2}skip {2}(?:\S+|\d+ checks) — not sent: the target stopped answering .*connection refused/m,
  );
});

test('a connection reset in the middle of the body is named, the run stops, exit 2', async () => {
  const { server, run } = await against(
    firstThen(PREFLIGHT_REQUESTS, OK_JSON, { kind: 'reset', partialBody: '{"object":"list","data":[' }),
  );
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  expect(run.report?.verdict).toBe('incomplete');
  expect(run.report?.run.incomplete).toMatch(
    /^\d+ MUST requirement\(s\) not judged: .*connection (reset|broken) while reading the response/,
  );
  expect(server.received).toHaveLength(PREFLIGHT_REQUESTS + CONSECUTIVE_FAILURE_LIMIT);
  const errors = run.report!.checks.filter((c) => c.status === 'error');
  expect(errors).toHaveLength(CONSECUTIVE_FAILURE_LIMIT);
  for (const c of errors) expect(c.reason).toMatch(/connection (reset|broken) while reading the response/);
  expect(run.report!.checks.filter((c) => c.status === 'fail')).toEqual([]);
});

test('bytes that are not HTTP at the preflight: one line, exit 2', async () => {
  const { server, run } = await against(() => ({ kind: 'garbage', bytes: 'SSH-2.0-OpenSSH_9.6\r\n' }));
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  // Reached (it answered), but nothing it said can be read: the cause, not "unreachable".
  expect(stderrLines(run)).toEqual([
    expect.stringMatching(
      /^conformance: target \S+ answers, but no answer of the preflight could be read: the answer is not valid HTTP \(HPE_[A-Z_]+\)$/,
    ),
  ]);
  expect(server.received).toHaveLength(PREFLIGHT_REQUESTS);
});

// An 80 KB header block is past what Node reads; the preflight names that, not "unreachable".
test('an 80 KB header block at the preflight: one line naming the header limit, exit 2', async () => {
  const { run } = await against(() => ({
    kind: 'raw',
    body: '{}',
    headers: { 'content-type': 'application/json', 'x-padding': 'a'.repeat(80 * 1024) },
  }));
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  expect(stderrLines(run)).toEqual([
    expect.stringMatching(
      /^conformance: target \S+ answers, but no answer of the preflight could be read: the response headers are larger than the \d+ bytes the suite reads \(HPE_HEADER_OVERFLOW\)$/,
    ),
  ]);
});
