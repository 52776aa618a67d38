/**
 * A main container whose listing opens with hundreds of pages without a file (variant hidden-listing-start;
 * 4.1 rule 3 "`data` may be empty"): the checks whose own walk from the start meets only those pages ask
 * again where the run's listing showed files, so files.file.schema, files.limit.default-maximum and
 * files.limit.default-value are judged over files; where the run reaches none, they are said not judged
 * with the cause, never passed (rule "No green without evidence").
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RawResponse, Transport } from '../core/http/transport.ts';
import { Client } from '../core/http/client.ts';
import { executeCheck } from '../core/run/execute-check.ts';
import { viewOf } from '../core/target/target.ts';
import { startReference } from '../reference/server.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { probeCheck, referenceTarget, runEngineAgainst, testSettings } from './support/harness.ts';
import { MemoryTransport } from './support/memory-transport.ts';

const shape = CONFORMANT_VARIANTS.find((v) => v.name === 'hidden-listing-start')!.options;
/** Each check and the requirement over listed files it judges. */
const OVER_FILES: ReadonlyArray<[string, string]> = [
  ['files.response.schema', 'files.file.schema'],
  ['files.limit.default-maximum', 'files.limit.default-maximum'],
  ['files.limit.default-value', 'files.limit.default-value'],
];

test('hidden-listing-start with a wrong file object and a default page of 50 is NON-CONFORMANT on seeds 1-5, failing both', async () => {
  test.setTimeout(300_000);
  for (const seed of [1, 2, 3, 4, 5]) {
    const report = await runEngineAgainst(
      { ...shape, faults: ['files-wrong-object', 'files-default-limit-50'] },
      { settings: { seed } },
    );
    const status = (id: string) => report.requirements.find((r) => r.id === id)?.status;
    expect({ seed, verdict: report.verdict, schema: status('files.file.schema') }).toEqual({
      seed,
      verdict: 'non-conformant',
      schema: 'fail',
    });
    expect(status('files.limit.default-value'), `seed ${seed}`).toBe('fail');
    const failure = report.checks
      .find((c) => c.checkId === 'files.limit.default-value')!
      .failures.find((f) => f.requirementId === 'files.limit.default-value');
    expect(failure?.message).toMatch(/without limit the page lists 50 files .* the default is not 100$/);
  }
});

test('files.response.schema judges the records of a page that lists files, past the empty start', async () => {
  const clean = await probeCheck('files.response.schema', shape);
  expect(`${clean.status} ${clean.reason ?? ''}`).toBe('pass ');
  expect(clean.notJudged ?? []).toEqual([]);
  // The check alone: its first page lists no file, so only the page it asks past the start shows the fault.
  const faulty = await probeCheck('files.response.schema', { ...shape, faults: ['files-wrong-object'] });
  expect(faulty.status).toBe('fail');
  expect(faulty.failures.map((f) => f.requirementId)).toContain('files.file.schema');
  expect(faulty.failures.find((f) => f.requirementId === 'files.file.schema')!.message).toMatch(
    /\/data\/0\/object must be equal to constant "container\.file"/,
  );
});

/**
 * The reference in front of a transport that adds files to every page asked without limit and with
 * after that lists a file, up to 101 (a default page over the 100 of 4.1 / 8), wherever it is asked.
 */
class OverfullDefaultPages implements Transport {
  constructor(private readonly inner: Transport) {}
  async get(url: URL, headers: Record<string, string>): Promise<RawResponse> {
    const raw = await this.inner.get(url, headers);
    const q = url.searchParams;
    if (!url.pathname.endsWith('/files') || q.has('limit') || !q.has('after') || raw.status !== 200) return raw;
    const body = JSON.parse(raw.body.toString('utf8')) as { data: Array<Record<string, unknown>> };
    const last = body.data[body.data.length - 1];
    if (!last) return raw;
    for (let i = body.data.length; i <= 100; i++) body.data.push({ ...last, path: `${String(last.path)}~${i}` });
    return { ...raw, body: Buffer.from(JSON.stringify(body)) };
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

test('files.limit.default-maximum judges pages that list files past the empty start: a default page of 101 files fails it', async () => {
  const server = await startReference(shape);
  try {
    const settings = testSettings(mkdtempSync(join(tmpdir(), 'hidden-start-')));
    const target = referenceTarget(server);
    const check = ALL_CHECKS.find((c) => c.id === 'files.limit.default-maximum')!;
    const run = (transport: Transport) =>
      executeCheck(check, new Client(target, settings, transport), viewOf(target), settings, {
        judges: RESPONSE_JUDGES,
      });
    const clean = await run(new MemoryTransport(server));
    expect(`${clean.status} ${clean.reason ?? ''}`).toBe('pass ');
    expect(clean.notJudged ?? []).toEqual([]);
    const over = await run(new OverfullDefaultPages(new MemoryTransport(server)));
    expect(over.status).toBe('fail');
    // The check's own words among the page judge's (and the id judge's over the padding's ids).
    expect(
      over.failures.filter((f) => f.requirementId === 'files.limit.default-maximum').map((f) => f.message),
    ).toContain('a page without limit holds 101 files, more than the default of 100');
  } finally {
    await server.close();
  }
});

test('where the run cannot reach a file within its budget, the three are not judged with the cause, never passed', async () => {
  // At 200 requests the shared listing's share (0.4) ends long before the 300 pages without a file.
  for (const [checkId, requirement] of OVER_FILES) {
    const outcome = await probeCheck(checkId, shape, { settings: { maxRequests: 200 } });
    const said = (outcome.notJudged ?? []).find((n) => n.requirementId === requirement);
    expect(said?.reason, checkId).toMatch(
      /listed no file, and the listing was read as far as no file and no further: its share of the request budget/,
    );
    expect(outcome.failures, checkId).toEqual([]);
  }
});

test('the conformant shape stays CONFORMANT, the three passed and none of them said not judged', async () => {
  const report = await runEngineAgainst(shape, { settings: { seed: 1 } });
  expect(report.verdict).toBe('conformant');
  for (const [checkId, requirement] of OVER_FILES) {
    expect(report.requirements.find((r) => r.id === requirement)?.status, requirement).toBe('pass');
    expect(report.checks.find((c) => c.checkId === checkId)?.notJudged ?? [], checkId).toEqual([]);
  }
});
