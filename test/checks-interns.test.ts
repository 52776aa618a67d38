/** Own tests of the interns checks (suites/checks/interns.ts) against the reference and its faults. */
import { expect, test } from '@playwright/test';
import type { CheckOutcome } from '../core/check/check.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { internsChecks } from '../suites/checks/interns.ts';
import { internsQueryChecks } from '../suites/checks/interns-query.ts';
import { probeCheck } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

/** Adds interns.regionalBaseUrl to the reference's target file: `path` is put in front of /v1. */
const withRegional =
  (prefix: string) =>
  (yaml: string): string => {
    const base = /^baseUrl: (.*)$/m.exec(yaml)?.[1];
    if (!base) throw new Error('no baseUrl in the target file');
    const regional = base.replace(/\/v1$/, `${prefix}/v1`);
    return yaml.replace(/^ {2}regionalBaseUrl: .*$/m, `  regionalBaseUrl: ${JSON.stringify(regional)}`);
  };
/** The reference serves only /v1/...: a base URL under another prefix is answered 404, a refusal too. */
const REGIONAL_REFUSING = withRegional('/eu-west-1');
/** A "regional" base URL that is the main one: it serves list interns, as a regional host must not. */
const REGIONAL_SERVING = withRegional('');

const VARIANT_PARAMS = { limit: 'page_size', status: 'statuses', workspace: 'workspace' };
const variantParamsLine = (y: string) =>
  y.replace(
    /^ {2}params: .*$/m,
    `  params: { limit: "${VARIANT_PARAMS.limit}", status: "${VARIANT_PARAMS.status}", workspace: "${VARIANT_PARAMS.workspace}" }`,
  );

const CHECK_IDS = [...internsChecks, ...internsQueryChecks].map((c) => c.id);

/** Each MUST/SHOULD check, the fault that breaks its requirement, and the requirement it must name. */
const FAULT_CASES: ReadonlyArray<{ check: string; fault: string; requirement: string }> = [
  { check: 'interns.response.schema', fault: 'interns-has-more-string', requirement: 'interns.list.schema' },
  {
    check: 'interns.response.schema',
    fault: 'interns-description-not-string',
    requirement: 'interns.intern.field-types',
  },
  { check: 'interns.intern.uuid-fields', fault: 'interns-bad-uuid', requirement: 'interns.intern.uuid-fields' },
  {
    check: 'interns.intern.timestamps',
    fault: 'interns-timestamps-no-millis',
    requirement: 'interns.intern.timestamps',
  },
  {
    check: 'interns.intern.hostname-shape',
    fault: 'interns-hostname-no-domain',
    requirement: 'interns.intern.hostname-shape',
  },
  {
    check: 'interns.intern.hostname-name',
    fault: 'interns-hostname-mismatch',
    requirement: 'interns.intern.hostname-label-name',
  },
  { check: 'interns.intern.model-shape', fault: 'interns-model-bad-shape', requirement: 'interns.intern.model-shape' },
  {
    check: 'interns.intern.status-value',
    fault: 'interns-unknown-status-value',
    requirement: 'interns.intern.status-value',
  },
  {
    check: 'interns.intern.workspace-of-key',
    fault: 'interns-other-workspace-leak',
    requirement: 'interns.intern.workspace-of-key',
  },
  { check: 'interns.order.newest-first', fault: 'interns-oldest-first', requirement: 'interns.order.newest-first' },
  {
    check: 'interns.pages.cursor-walk',
    fault: 'interns-cursor-page-other-workspace',
    requirement: 'interns.intern.workspace-of-key',
  },
  {
    check: 'interns.limit.bounds-accepted',
    fault: 'interns-limit-max-too-low',
    requirement: 'interns.limit.bounds-accepted',
  },
  { check: 'interns.limit.respected', fault: 'interns-limit-not-enforced', requirement: 'interns.limit.respected' },
  {
    check: 'interns.limit.out-of-range',
    fault: 'interns-limit-bounds-not-enforced',
    requirement: 'interns.limit.out-of-range-rejected',
  },
  // Faults of reference/faults/readings.ts: readings that are not faithful (spec/readings.yaml).
  {
    check: 'interns.limit.non-integer',
    fault: 'interns-limit-non-integer-accepted',
    requirement: 'interns.limit.non-integer-rejected',
  },
  { check: 'interns.limit.maximum', fault: 'interns-limit-above-maximum-served', requirement: 'interns.limit.maximum' },
  {
    check: 'interns.limit.out-of-range',
    fault: 'interns-limit-above-maximum-served',
    requirement: 'interns.limit.out-of-range-rejected',
  },
  { check: 'interns.status.filter', fault: 'interns-status-filter-ignored', requirement: 'interns.status.filter' },
  { check: 'interns.status.filter', fault: 'interns-status-list-first-only', requirement: 'interns.status.filter' },
  {
    check: 'interns.status.unknown-rejected',
    fault: 'interns-bad-status-accepted',
    requirement: 'interns.status.unknown-rejected',
  },
  {
    check: 'interns.status.invalid-rejected',
    fault: 'interns-bad-status-accepted',
    requirement: 'interns.status.invalid-rejected',
  },
  {
    check: 'interns.workspace.filter',
    fault: 'interns-workspace-filter-refused',
    requirement: 'interns.workspace.filter',
  },
  {
    check: 'interns.workspace.mismatch-no-fallback',
    fault: 'interns-workspace-fallback',
    requirement: 'interns.workspace.mismatch-no-fallback',
  },
  {
    check: 'interns.workspace.mismatch-refused',
    fault: 'interns-workspace-fallback',
    requirement: 'interns.workspace.mismatch-refused',
  },
  {
    check: 'interns.workspace.malformed-refused',
    fault: 'interns-malformed-workspace-accepted',
    requirement: 'interns.workspace.malformed-refused',
  },
  {
    check: 'interns.workspace.malformed-rejected',
    fault: 'interns-malformed-workspace-accepted',
    requirement: 'interns.workspace.malformed-rejected',
  },
  // Decision value-outside-type: the empty 200 another workspace's UUID may get is no answer to a value that is no UUID.
  {
    check: 'interns.workspace.malformed-refused',
    fault: 'interns-malformed-workspace-empty',
    requirement: 'interns.workspace.malformed-refused',
  },
  {
    check: 'interns.workspace.malformed-rejected',
    fault: 'interns-malformed-workspace-empty',
    requirement: 'interns.workspace.malformed-rejected',
  },
];

/** Conformant variants of the reference: none of these checks may fail, error or skip on them. */
const CONFORMANT: ReadonlyArray<{
  name: string;
  options: Partial<ReferenceOptions>;
  editTarget?: (y: string) => string;
}> = [
  { name: 'plain', options: {} },
  { name: 'sparseEndpoints', options: { sparseEndpoints: true } },
  { name: 'extraFields', options: { extraFields: true } },
  {
    name: 'stringErrorStatus',
    options: { stringErrorStatus: { invalid_body: 422, not_found: 410, internal_error: 503 } },
  },
  { name: 'internsParams', options: { internsParams: VARIANT_PARAMS }, editTarget: variantParamsLine },
  { name: 'restricted key accepted', options: { restrictedKeyAcceptedBy: ['listInterns'] } },
  { name: 'charset content type', options: { contentType: 'application/json; charset=utf-8' } },
  { name: 'default page size 20', options: { internsDefaultPageSize: 20 } },
  // Readings of spec/readings.yaml that no interns check reports, not even as a SHOULD.
  ...(['limit-number-spellings', 'limit-empty-default'] as const).map((r) => ({
    name: `reading ${r}`,
    options: { readings: [r] },
  })),
];

const show = (o: CheckOutcome) => `${o.checkId}: ${o.status} ${o.reason ?? ''}`;
const run = (id: string, options: Partial<ReferenceOptions> = {}, edit?: (y: string) => string) =>
  probeCheck(id, options, { editTarget: (y) => REGIONAL_REFUSING(edit ? edit(y) : y) });

for (const { name, options, editTarget } of CONFORMANT) {
  test(`conformant variant ${name}: every interns check passes`, async () => {
    const outcomes = await Promise.all(CHECK_IDS.map((id) => run(id, options, editTarget)));
    expect(outcomes.filter((o) => o.status !== 'pass').map(show)).toEqual([]);
  });
}

for (const { check, fault, requirement } of FAULT_CASES) {
  test(`${check} fails on ${fault} with ${requirement}`, async () => {
    const outcome = await run(check, { faults: [fault] });
    expect(outcome.status, outcome.reason).toBe('fail');
    expect(outcome.failures[0]?.requirementId).toBe(requirement);
    expect(outcome.failures[0]?.exchanges.length).toBeGreaterThan(0);
  });
}

test('every interns fault of this file is proven by a case above', () => {
  for (const c of FAULT_CASES)
    expect(
      FAULTS.some((f) => f.name === c.fault),
      c.fault,
    ).toBe(true);
  // A fault breaks one requirement, or the MUST every reading agrees on and the SHOULD of one reading: each proven.
  for (const c of FAULT_CASES) {
    const breaks = FAULTS.find((f) => f.name === c.fault)?.breaks ?? [];
    for (const r of breaks)
      expect(
        FAULT_CASES.some((x) => x.fault === c.fault && x.requirement === r),
        `${c.fault} breaks ${r}`,
      ).toBe(true);
  }
});

// A fault breaks exactly the requirements it declares: no interns check may fail on another requirement.
for (const fault of [...new Set(FAULT_CASES.map((c) => c.fault))]) {
  const breaks = FAULTS.find((f) => f.name === fault)?.breaks ?? [];
  test(`${fault} fails no interns requirement but ${breaks.join(', ')}`, async () => {
    const outcomes = await Promise.all(CHECK_IDS.map((id) => run(id, { faults: [fault] })));
    const wrong = outcomes.flatMap((o) =>
      o.failures
        .filter((f) => !breaks.includes(f.requirementId))
        .map((f) => `${o.checkId}: ${f.requirementId} ${f.message}`),
    );
    expect(wrong).toEqual([]);
    expect(outcomes.filter((o) => o.status === 'error').map(show)).toEqual([]);
  });
}

test('regional host: a regional base URL that serves list interns fails', async () => {
  const outcome = await probeCheck('interns.regional-host-refused', {}, { editTarget: REGIONAL_SERVING });
  expect(outcome.status, outcome.reason).toBe('fail');
  expect(outcome.failures[0]?.requirementId).toBe('interns.regional-host-refused');
  expect(outcome.failures[0]?.exchanges[0]?.request.url).toContain('/v1/interns');
});

test('regional host: skipped without interns.regionalBaseUrl; refusal observed with its status', async () => {
  const skipped = await probeCheck(
    'interns.regional-host-refused',
    {},
    { editTarget: (y) => y.replace(/^ {2}regionalBaseUrl: .*\n/m, '') },
  );
  expect(skipped.status).toBe('skip');
  expect(skipped.reason).toContain('regionalBaseUrl');
  // Asked bare and with a query (the target file names the parameters): both refused.
  const expected = {
    requirementId: 'interns.regional-host-refused',
    value: {
      requests: [
        { query: '(none)', status: 404 },
        { query: 'limit=1', status: 404 },
      ],
    },
  };
  const refused = await run('interns.regional-host-refused');
  expect(refused.status).toBe('pass');
  expect(refused.observations).toEqual([expected]);
  // The reference's own regional host (a second listener) refuses with 7.3 not_found.
  const own = await probeCheck('interns.regional-host-refused');
  expect(own.status).toBe('pass');
  expect(own.observations).toEqual([expected]);
  // Without the parameters' names, the bare request alone.
  const bare = await probeCheck(
    'interns.regional-host-refused',
    {},
    { editTarget: (y) => y.replace(/^ {2}params: .*\n/m, '') },
  );
  expect(bare.observations).toEqual([
    { requirementId: 'interns.regional-host-refused', value: { query: '(none)', status: 404 } },
  ]);
});

test('checks that send a parameter are skipped without interns.params, the others still run', async () => {
  const noParams = (y: string) => y.replace(/^ {2}params: .*\n/m, '');
  const outcomes = await Promise.all(CHECK_IDS.map((id) => run(id, {}, noParams)));
  const skipped = outcomes
    .filter((o) => o.status === 'skip')
    .map((o) => o.checkId)
    .sort();
  expect(skipped).toEqual([
    'interns.limit.bounds-accepted',
    'interns.limit.maximum',
    'interns.limit.non-integer',
    'interns.limit.out-of-range',
    'interns.limit.respected',
    'interns.limit.spelling',
    'interns.status.filter',
    'interns.status.invalid-rejected',
    'interns.status.unknown-rejected',
    'interns.workspace.filter',
    'interns.workspace.malformed-refused',
    'interns.workspace.malformed-rejected',
    'interns.workspace.mismatch-no-fallback',
    'interns.workspace.mismatch-refused',
  ]);
  for (const o of outcomes.filter((x) => x.status === 'skip')) expect(o.reason).toContain('interns.params');
  expect(outcomes.filter((o) => o.status !== 'skip' && o.status !== 'pass').map(show)).toEqual([]);
  const names = outcomes.find((o) => o.checkId === 'interns.params.names');
  expect(String(names?.observations[0]?.value)).toContain('not set');
});

test('mismatch-refused is skipped without interns.otherWorkspaceId', async () => {
  const outcome = await probeCheck(
    'interns.workspace.mismatch-refused',
    {},
    { editTarget: (y) => y.replace(/^ {2}otherWorkspaceId: .*\n/m, '') },
  );
  expect(outcome.status).toBe('skip');
  expect(outcome.reason).toContain('otherWorkspaceId');
});

test('parameters under names the server does not know: the checks that send them end as error with a hint, not as failures', async () => {
  // Target file keeps the default names while the reference uses the variant ones and ignores unknown
  // parameters: limit=1 lists a whole page and the status filter changes nothing (4.3: names not shown).
  const wrongNames = (y: string) =>
    y.replace(/^ {2}params: .*$/m, '  params: { limit: "limit", status: "status", workspace: "workspace_id" }');
  const outcome = await probeCheck(
    'interns.limit.respected',
    { internsParams: VARIANT_PARAMS },
    { editTarget: wrongNames },
  );
  expect(outcome.status, outcome.reason).toBe('error');
  expect(outcome.reason).toContain('limit=1 listed 50 interns: are interns.params.limit/status right?');
  expect(outcome.failures).toEqual([]);
  // The checks that send no parameter still judge.
  expect(
    (await probeCheck('interns.response.schema', { internsParams: VARIANT_PARAMS }, { editTarget: wrongNames })).status,
  ).toBe('pass');
});

test('out-of-range names the value it sent; mismatch-refused says what a fallback listed', async () => {
  const range = await probeCheck('interns.limit.out-of-range', { faults: ['interns-limit-bounds-not-enforced'] });
  expect(range.reason).toContain('"0"');
  const fallback = await probeCheck('interns.workspace.mismatch-no-fallback', {
    faults: ['interns-workspace-fallback'],
  });
  expect(fallback.reason).toMatch(/HTTP 200 listing 50 interns of workspace\(s\) [0-9a-f-]{36}/);
});

test('string-coded errors: an invalid_body with an integer code or a 5xx is not a rejection', async () => {
  const at500 = await probeCheck('interns.status.invalid-rejected', {
    stringErrorStatus: { invalid_body: 500, not_found: 404, internal_error: 500 },
  });
  expect(at500.status).toBe('fail');
  expect(at500.reason).toContain('HTTP 500');
});

test('observations: nullable types, default page size, parameter names, next page, time-outs', async () => {
  const value = async (id: string, options: Partial<ReferenceOptions> = {}) =>
    (await run(id, options)).observations[0]?.value as Record<string, any>;

  const types = await value('interns.intern.nullable-types');
  // The widest page (8 "Page size 1 to 500"): the reference's key sees more than 500 interns.
  expect(types.interns).toBe(500);
  expect(Object.keys(types.progress.types).sort()).toEqual(expect.arrayContaining(['null']));
  expect(types.attached_vault_id.types.string + types.attached_vault_id.types.null).toBe(500);

  expect(await value('interns.limit.default')).toEqual({ 'data.length': 50, has_more: true, defaultPageSize: 50 });
  expect(await value('interns.limit.default', { internsDefaultPageSize: 20 })).toEqual({
    'data.length': 20,
    has_more: true,
    defaultPageSize: 20,
  });

  expect(await value('interns.params.names')).toEqual({ limit: 'limit', status: 'status', workspace: 'workspace_id' });

  const next = await value('interns.pagination.next-page', { extraFields: true });
  expect(next).toMatchObject({
    request: 'page size 1',
    has_more: true,
    'data.length': 1,
    fieldsBeyondDataAndHasMore: { x_reference: true },
  });

  const timeouts = await value('interns.timeout.length');
  expect(timeouts).toMatchObject({ answered408: false });
});
