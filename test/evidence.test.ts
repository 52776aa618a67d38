import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../cli/api.ts';
import { judgeRecording, loadRecording, RecordingTransport, type Recording } from '../cli/offline-judge.ts';
import { CannotJudge } from '../core/check/errors.ts';
import { Recorder, recordingTransport } from '../core/http/recorder.ts';
import { Client } from '../core/http/client.ts';
import { TransportError, type Transport } from '../core/http/transport.ts';
import type { Target } from '../core/target/target.ts';
import { Mask, secretsOf } from '../core/text/mask.ts';
import { harOf, type Har, type RecordedRun } from '../reports/har.ts';
import { belongingProblems, disagreements, loadReportFile } from '../cli/verify-recording.ts';
import { verdictLine } from '../reports/format.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { compileOwnSchema } from '../spec/schemas.ts';
import harSchema from './fixtures/har-1.2.schema.json' with { type: 'json' };
import { runScript, testSettings } from './support/harness.ts';
import { hostileTarget } from './support/hostile-server.ts';
import { findKeys } from './support/key-scan.ts';

// Every run leaves evidence.har; `conformance judge` judges it again offline to the live run's verdict.
test.describe.configure({ mode: 'parallel' });
const validHar = compileOwnSchema(harSchema);

const statuses = (r: ConformanceReport) => Object.fromEntries(r.requirements.map((q) => [q.id, q.status]));

async function liveAndOffline(faults: string[]) {
  const server = await startReference({ faults });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-'));
    const file = join(dir, 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const env = referenceKeyEnv(server);
    const reportDir = join(dir, 'report');
    const live = await runConformance({ target: file, env, seed: 7, reportDir });
    const harFile = join(reportDir, 'evidence.har');
    const harText = readFileSync(harFile, 'utf8');
    // Offline: the reference is stopped before the recording is judged, so no answer can come from it.
    await server.close();
    const offline = await judgeRecording(loadRecording(harFile));
    return { live, offline, harText, harFile, keys: Object.values(env), reportDir };
  } finally {
    await server.close().catch(() => undefined);
  }
}

test('a run of the reference with --seed 7 writes evidence.har (HAR 1.2, no key), and judge gives its verdict and statuses offline', async () => {
  const { live, offline, harText, harFile, keys, reportDir } = await liveAndOffline([]);
  const har = JSON.parse(harText);
  expect(validHar(har), JSON.stringify(validHar.errors?.slice(0, 3))).toBe(true);
  expect(har.log.entries.length).toBeGreaterThan(3);
  // The preflight's three requests are recorded too (one per operation).
  expect(findKeys(harText, keys)).toEqual([]);
  expect(harText).toContain('Bearer $CONFORMANCE_REFERENCE_API_KEY');
  expect(live.run.evidence?.entries).toBe(har.log.entries.length);
  expect(readFileSync(join(reportDir, '.conformance-report'), 'utf8')).toContain('evidence.har');
  expect(live.verdict).toBe('conformant');
  expect(statuses(offline)).toEqual(statuses(live));
  expect(offline.verdict).toBe(live.verdict);
  // `conformance judge` closes as the main command's console states its verdict (reports/console-summary.ts).
  const judged = await runScript('cli/judge.ts', [harFile], { timeoutMs: 60_000 });
  expect(judged.code, judged.stderr).toBe(0);
  expect(judged.stdout.trimEnd().split('\n').at(-1)).toBe(`verdict: ${verdictLine(live)}`);
  expect(verdictLine(live)).toMatch(/^CONFORMANT/);

  // verify: the report and its recording agree untouched; one byte changed in one response is named.
  const report = loadReportFile(join(reportDir, 'report.json'));
  expect(await disagreements(report, loadRecording(harFile))).toEqual([]);
  const changed = loadRecording(harFile);
  const at = changed.log.entries.findIndex((e) => (e.response.content.text ?? '').includes('"data"'));
  expect(at).toBeGreaterThanOrEqual(0);
  const entry = changed.log.entries[at]!;
  entry.response.content.text = entry.response.content.text!.replace('"data"', '"dati"');
  const found = await disagreements(report, changed);
  expect(found).toEqual([`entry ${at} (GET ${entry.request.url}) is not the one the report names`]);
  // Many changed entries: twenty named, then how many more.
  const many = loadRecording(harFile);
  for (const e of many.log.entries.slice(0, 25)) e.response.content.text = `${e.response.content.text ?? ''} `;
  const manyFound = belongingProblems(report, many);
  expect(manyFound).toHaveLength(21);
  expect(manyFound[20]).toBe('and 5 more entries are not the ones the report names');
  // Another run's recording (here: its start): that one line, not an entry-by-entry list of its differences.
  const other = loadRecording(harFile);
  other.log._conformance.startedAt = new Date(0).toISOString();
  for (const e of other.log.entries) e.response.content.text = `${e.response.content.text ?? ''} `;
  expect(belongingProblems(report, other)).toEqual(['the recording is of another run (its start differs)']);

  // A recording without the answers of one operation: what asked them is not judged, "not in the
  // recording", never failed; the run is no certificate (ERROR), rule "No green without evidence".
  const cut = loadRecording(harFile);
  cut.log.entries = cut.log.entries.filter((e) => !new URL(e.request.url).pathname.endsWith('/interns'));
  const partial = await judgeRecording(cut);
  expect(partial.requirements.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
  const notRecorded = partial.requirements.filter((r) => r.reason?.includes('GET /v1/interns: not in the recording'));
  expect(notRecorded.length).toBeGreaterThan(0);
  expect(notRecorded.filter((r) => r.status !== 'error').map((r) => r.id)).toEqual([]);
  expect(partial.verdict).toBe('error');
});

test('a fault is judged offline as live: auth-invalid-key-accepted fails the same requirements from its recording, and verify names a changed entry', async () => {
  const { live, offline, harFile, reportDir, harText } = await liveAndOffline(['auth-invalid-key-accepted']);
  expect(live.verdict).toBe('non-conformant');
  expect(offline.verdict).toBe(live.verdict);
  expect(statuses(offline)).toEqual(statuses(live));
  // verify: a non-conformant report and its recording agree untouched; one byte of the answer a finding
  // points at, changed, is named by its entry.
  const report = loadReportFile(join(reportDir, 'report.json'));
  expect(await disagreements(report, loadRecording(harFile))).toEqual([]);
  const at = report.checks.flatMap((c) => c.failures.flatMap((f) => f.exchanges)).find((x) => x.harEntry !== undefined)
    ?.harEntry as number;
  const changed = loadRecording(harFile);
  const entry = changed.log.entries[at]!;
  const text = entry.response.content.text!;
  entry.response.content.text = `${text[0] === '{' ? '[' : '{'}${text.slice(1)}`;
  expect(await disagreements(report, changed)).toEqual([
    `entry ${at} (GET ${entry.request.url}) is not the one the report names`,
  ]);
  // Each finding points at its own entry of the recording: the same URL, status, Authorization (the
  // fault's refused key and the valid key ask the same URLs) and body as the exchange it came from.
  const entries = (JSON.parse(harText) as Har).log.entries;
  const exchanges = live.checks.flatMap((c) => c.failures.flatMap((f) => f.exchanges));
  expect(exchanges.length).toBeGreaterThan(0);
  for (const x of exchanges) {
    expect(x.harEntry, x.request.url).toBeDefined();
    const entry = entries[x.harEntry!]!;
    const sent = Object.fromEntries(entry.request.headers.map((h) => [h.name, h.value]));
    expect(entry.request.url).toBe(x.request.url);
    expect(sent['authorization']).toBe(x.request.headers['authorization']);
    expect(entry.response.status).toBe(x.response?.status ?? 0);
    if (x.response && !x.response.truncated) expect(entry.response.content.text).toBe(x.response.body);
  }
});

test('an exchange names its own entry of the recording: one URL asked twice, answered with two bodies, is two entries, and an unanswered request its own', async () => {
  let asked = 0;
  const inner: Transport = {
    get: async () => {
      asked++;
      if (asked === 3) throw new TransportError('connection reset by the target', false, 'reset');
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ object: 'list', data: [], first_id: null, last_id: null, answer: asked })),
      };
    },
    close: async () => {},
  };
  const recorder = new Recorder();
  const runDir = mkdtempSync(join(tmpdir(), 'evidence-entry-'));
  const client = new Client(
    hostileTarget('http://127.0.0.1:9/v1'),
    testSettings(runDir, { maxRetries: 0 }),
    recordingTransport(inner, recorder),
  );
  // `fresh`: a check asking the same page again to see whether it moved; both answers are recorded.
  const first = await client.fresh.listContainerFiles('cntr_hostile');
  const second = await client.fresh.listContainerFiles('cntr_hostile');
  const third = await client.fresh.listContainerFiles('cntr_hostile').catch((e: CannotJudge) => e);
  expect(second.exchange.request.url).toBe(first.exchange.request.url);
  expect([first.exchange.harEntry, second.exchange.harEntry]).toEqual([0, 1]);
  expect(third).toBeInstanceOf(CannotJudge);
  expect((third as CannotJudge).exchanges[0]?.harEntry).toBe(2);
  const har = harOf(recorder, { target: {}, suite: { name: 'conformance', version: '0' } } as RecordedRun, client.mask);
  expect(har.log.entries[second.exchange.harEntry!]!.response.content.text).toBe(second.text);
  expect(har.log.entries[first.exchange.harEntry!]!.response.content.text).toBe(first.text);
  expect(har.log.entries[2]!.response.status).toBe(0);
});

test('the recording is bounded: past a body or run bound an answer is kept without its text, and log.comment says so', async () => {
  const recorder = new Recorder({ runBytes: 6, bodyBytes: 6 });
  const inner: Transport = {
    get: async (url) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(url.pathname.slice(1)),
    }),
    close: async () => {},
  };
  const t = recordingTransport(inner, recorder);
  for (const p of ['abcd', 'efgh', 'too-long-a-body']) await t.get(new URL(`http://127.0.0.1/${p}`), {});
  const target = { apiKey: 'k'.repeat(24), baseUrl: 'http://127.0.0.1/v1' } as Target;
  const har = harOf(
    recorder,
    { target: {}, suite: { name: 'conformance', version: '0' } } as RecordedRun,
    new Mask(secretsOf(target)),
  );
  expect(har.log.entries.map((e) => e.response.content.text)).toEqual(['abcd', undefined, undefined]);
  expect(har.log.comment).toMatch(/bound was reached/);
  // Without a bound reached, no comment.
  const small = new Recorder();
  await recordingTransport(inner, small).get(new URL('http://127.0.0.1/x'), {});
  expect(
    harOf(
      small,
      { target: {}, suite: { name: 'conformance', version: '0' } } as RecordedRun,
      new Mask(secretsOf(target)),
    ).log.comment,
  ).toBeUndefined();
});

test('a request the recording does not hold is not judged, with its own reason, never a failure', async () => {
  const rec = { log: { version: '1.2', entries: [], _conformance: { target: {} } } } as unknown as Recording;
  const target = { apiKey: 'k'.repeat(24), baseUrl: 'http://127.0.0.1/v1' } as Target;
  const error = await new RecordingTransport(rec, target)
    .get(new URL('http://127.0.0.1/v1/interns'), {})
    .catch((e) => e);
  expect(error).toBeInstanceOf(CannotJudge);
  expect(error.reason).toBe('not-recorded');
  expect(error.message).toContain('not in the recording');
});
