/**
 * The whole-run judges (suites/judges/): pure functions of one response. First on hand-built
 * responses (each rule, its requirement, its position; what the document leaves open passes), then on
 * what the reference sends with each record fault at the first, a middle and the last position.
 */
import { expect, test } from '@playwright/test';
import type { Exchange } from '../core/check/evidence.ts';
import { encodeFileId } from '../core/document/file-id.ts';
import { decodeJsonBody, type JsonBodyFacts } from '../core/http/json-body.ts';
import type { Finding, SeenResponse } from '../core/check/judge.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { RECORD_FAULTS, recordIndex } from '../reference/faults/records.ts';
import type { FaultPosition, ReferenceOptions, ReferenceServer } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { duplicateKeyObservation, RESPONSE_JUDGES } from '../suites/judges/index.ts';
import { foreignWorkspace } from '../suites/judges/intern-pages.ts';
import { percentilesRule, pricingRule } from '../suites/judges/endpoint-records.ts';
import { modelWrapperViolation } from '../suites/judges/model-responses.ts';
import { limitOfRequest } from '../suites/support/page-rules.ts';

test.describe.configure({ mode: 'parallel' });

// ------------------------------------------------------------------------------------------------
// Hand-built responses

type Op = SeenResponse['operation'];
const PATH = 'reports/2024/q1 summary.csv';
const ID = `cfile_${Buffer.from(PATH).toString('base64url')}`;
const CONTAINER = 'cntr_abc-r1x';

function seen(
  operation: Op,
  status: number,
  json: unknown,
  more: Partial<SeenResponse> & JsonBodyFacts & { contentType?: string } = {},
): SeenResponse {
  const { contentType = 'application/json', ...rest } = more;
  const exchange: Exchange = {
    request: { method: 'GET', url: `http://127.0.0.1:1/v1/${operation}`, headers: {} },
    response: { status, headers: { 'content-type': contentType }, body: JSON.stringify(json) ?? '', truncated: false },
    durationMs: 1,
    retries: 0,
  };
  return {
    operation,
    check: 'hand-built',
    status,
    json,
    query: {},
    pathParams: operation === 'listContainerFiles' ? { container_id: CONTAINER } : {},
    auth: 'key',
    exchange,
    ...rest,
  };
}

// The record tests build pages of one repeated file: the page judge (4.1 rules over the page) is
// left out of them and tested on pages of its own below.
const judgeAll = (r: SeenResponse): Finding[] =>
  RESPONSE_JUDGES.filter((j) => j.id !== 'files.pages').flatMap((j) => j.judge(r));
const judgeEvery = (r: SeenResponse): Finding[] => RESPONSE_JUDGES.flatMap((j) => j.judge(r));
const brief = (fs: readonly Finding[]) => fs.map((f) => ({ requirementId: f.requirementId, position: f.position }));

const file = (over: Record<string, unknown> = {}) => ({
  id: ID,
  object: 'container.file',
  container_id: CONTAINER,
  bytes: 12,
  created_at: 1_717_200_000,
  path: PATH,
  source: 'assistant',
  ...over,
});
const list = (data: unknown[], over: Record<string, unknown> = {}) => ({
  object: 'list',
  data,
  first_id: null,
  last_id: null,
  has_more: false,
  ...over,
});
const filesPage = (bad: Record<string, unknown>, at = 2) =>
  seen('listContainerFiles', 200, list([file(), file(), file(bad), file()].map((f, i) => (i === at ? f : file()))));

test('every judge declares the requirements it can fail, all in the catalogue', async () => {
  const { catalogue } = await import('../core/document/catalogue.ts');
  for (const j of RESPONSE_JUDGES)
    for (const id of j.requirements) expect(catalogue().byId.has(id), `${j.id}: ${id}`).toBe(true);
});

test('a conformant page: no finding, also with padded ids, a null first_id and extra fields', () => {
  const padded = encodeFileId('a/b.txt', true);
  expect(
    judgeEvery(
      seen(
        'listContainerFiles',
        200,
        list([file({ path: 'a/b.txt', id: padded, x_extra: { any: 1 } }), file()], {
          x_next: null,
          first_id: padded,
          last_id: ID,
        }),
      ),
    ),
  ).toEqual([]);
  expect(
    judgeEvery(
      seen(
        'listContainerFiles',
        200,
        list([file({ path: 'a/b.txt', id: padded }), file()], { first_id: null, last_id: ID, has_more: true }),
      ),
    ),
  ).toEqual([]);
  expect(judgeEvery(seen('listContainerFiles', 200, list([])))).toEqual([]);
});

// The rules of 4.1 one page obeys on its own, on every page whichever check asked for it,
// against the request that fetched it (its limit, even one out of range the server accepted, and its cursor).
test('every page: 4.1 rules 1-4, first_id, page size and order, against the request that fetched it', () => {
  const at = (path: string) => file({ path, id: encodeFileId(path) });
  const page = (json: unknown, query: Record<string, string> = {}) => seen('listContainerFiles', 200, json, { query });
  const ids = (r: SeenResponse) => judgeEvery(r).map((f) => f.requirementId);
  const two = [at('a.txt'), at('b.txt')];
  const ok = { first_id: encodeFileId('a.txt'), last_id: encodeFileId('b.txt') };
  expect(ids(page(list(two, ok), { limit: '2' }))).toEqual([]);
  expect(ids(page(list([], { has_more: true, last_id: null }), { limit: '0' }))).toEqual([
    'files.pagination.last-id-when-has-more',
  ]);
  expect(ids(page(list(two, { ...ok, last_id: null })))).toEqual(['files.pagination.null-last-id']);
  expect(ids(page(list(two, { ...ok, last_id: encodeFileId('a.txt') })))).toEqual([
    'files.pagination.last-id-is-last-listed',
  ]);
  expect(ids(page(list(two, { ...ok, first_id: encodeFileId('b.txt') })))).toEqual(['files.list.first-id']);
  expect(
    ids(page(list([two[1], two[0]], { first_id: encodeFileId('b.txt'), last_id: encodeFileId('a.txt') }))),
  ).toEqual(['files.list.path-order']);
  expect(ids(page(list(two, ok), { limit: '1' }))).toEqual(['files.limit.page-size']);
  // An out-of-range limit the server chose to accept: held to "Minimum 1" as the clamping reading reads it.
  expect(ids(page(list(two, ok), { limit: '0' }))).toEqual(['files.limit.page-size']);
  expect(ids(page(list(two, ok), { after: encodeFileId('b.txt') }))).toEqual(['files.after.strictly-after']);
  // An opaque cursor (reading scan-cursor-opaque) names no path: where the page starts is not judged from it.
  expect(ids(page(list(two, ok), { after: 'scan:42' }))).toEqual([]);
  const many = (n: number) => Array.from({ length: n }, (_, i) => at(`f${String(i).padStart(5, '0')}`));
  const full = (n: number) =>
    list(many(n), { first_id: encodeFileId('f00000'), last_id: encodeFileId(`f${String(n - 1).padStart(5, '0')}`) });
  expect(ids(page(full(101)))).toEqual(['files.limit.default-maximum']);
  expect(ids(page(full(101), { limit: '' }))).toEqual(['files.limit.default-maximum']);
  expect(ids(page(full(1001), { limit: '5000' }))).toEqual(['files.limit.maximum']);
  expect(ids(page(full(1000), { limit: '5000' }))).toEqual([]);
});

test('container file records: each 2.1 rule on its requirement, at the record position', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ source: 'user' }, 'files.file.schema'],
    [{ object: 'file' }, 'files.file.schema'],
    [{ bytes: -1 }, 'files.file.schema'],
    [{ path: 7, id: 'cfile_Nw' }, 'files.file.schema'],
    [{ created_at: 1_717_200_000_000 }, 'files.file.created-at-seconds'],
    [{ created_at: '1717200000' }, 'files.file.created-at-seconds'],
    [{ created_at: 1_717_200_000.5 }, 'files.file.created-at-seconds'],
    [{ id: `cfile_${Buffer.from('other.txt').toString('base64url')}` }, 'files.file.id-encodes-path'],
    [{ id: `cfile_${PATH}` }, 'files.file.id-encodes-path'],
    [
      { path: 'b64/>>>.bin', id: `cfile_${Buffer.from('b64/>>>.bin').toString('base64')}` },
      'files.file.id-url-safe-alphabet',
    ],
    [{ container_id: 'cntr_abc' }, 'files.file.container-id-echo'],
    [{ path: '/abs.txt', id: `cfile_${Buffer.from('/abs.txt').toString('base64url')}` }, 'files.file.path-relative'],
  ];
  for (const [bad, requirementId] of cases) {
    expect(brief(judgeAll(filesPage(bad))), JSON.stringify(bad)).toEqual([{ requirementId, position: 2 }]);
  }
  // An absent created_at is the schema's (required), judged once.
  const { created_at: _c, ...noCreated } = file();
  expect(brief(judgeAll(seen('listContainerFiles', 200, list([noCreated]))))).toEqual([
    { requirementId: 'files.file.schema', position: 0 },
  ]);
});

test('list-level violations: 2.2 object and the presence of first_id, last_id, has_more', () => {
  expect(brief(judgeAll(seen('listContainerFiles', 200, list([file()], { object: 'container.file.list' }))))).toEqual([
    { requirementId: 'files.list.schema', position: undefined },
  ]);
  const { first_id: _f, ...noFirst } = list([]);
  expect(brief(judgeAll(seen('listContainerFiles', 200, noFirst)))).toEqual([
    { requirementId: 'files.list.schema', position: undefined },
  ]);
});

test('two records broken the same way are one violation; another way is another', () => {
  const page = seen(
    'listContainerFiles',
    200,
    list([file({ source: 'user' }), file({ source: 'user' }), file({ created_at: 1e12 }), file({ created_at: 2e12 })]),
  );
  const found = judgeAll(page);
  expect(new Set(found.filter((f) => f.requirementId === 'files.file.schema').map((f) => f.dedupeKey)).size).toBe(1);
  expect(
    new Set(found.filter((f) => f.requirementId === 'files.file.created-at-seconds').map((f) => f.dedupeKey)).size,
  ).toBe(1);
  expect(found.every((f) => f.exchange === page.exchange)).toBe(true);
});

const intern = (over: Record<string, unknown> = {}) => ({
  id: '3f1c2a9e-5b7d-4c1e-9a2b-7d6e5f4c3b2a',
  name: 'atlas-001',
  description: 'd',
  hostname: 'atlas-001.interns.example.dev',
  model: 'openai/gpt-4o',
  status: 'running',
  workspaceId: '0b5e8c1d-2a3f-4e6d-8c9b-1a2b3c4d5e6f',
  vault_id: '9a8b7c6d-5e4f-4a3b-8c1d-0e9f8a7b6c5d',
  attached_vault_id: null,
  instructions: null,
  lastFailureMessage: null,
  progress: null,
  createdAt: '2024-01-05T13:00:00.123Z',
  updatedAt: '2024-01-06T13:00:00.000+00:00',
  ...over,
});

test('intern records: each 2.5 rule as the interns checks read it, at the record position', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ status: 'paused' }, 'interns.intern.status-value'],
    [{ status: 'Running' }, 'interns.intern.status-value'],
    [{ vault_id: 'vault_1234' }, 'interns.intern.uuid-fields'],
    [{ createdAt: '2024-01-05T15:00:00.123+02:00' }, 'interns.intern.timestamps'],
    [{ updatedAt: '2024-01-05T13:00:00Z' }, 'interns.intern.timestamps'],
    [{ hostname: 'atlas-001' }, 'interns.intern.hostname-shape'],
    [{ hostname: 'other.interns.example.dev' }, 'interns.intern.hostname-label-name'],
    [{ name: 'Atlas 001', hostname: 'atlas.interns.example.dev' }, 'interns.intern.hostname-name'],
    [{ model: 'gpt-4o' }, 'interns.intern.model-shape'],
    [{ description: null }, 'interns.intern.field-types'],
    // A field that is never null is there (MUST); one that "Null is a possible value" may be left out
    // as null (reading interns-omit-null-fields): only the SHOULD of presence reports it.
    [{ description: undefined }, 'interns.intern.fields-present'],
    [{ vault_id: undefined }, 'interns.intern.fields-present'],
    [{ instructions: undefined }, 'interns.intern.schema'],
  ];
  for (const [bad, requirementId] of cases) {
    const page = seen('listInterns', 200, { data: [intern(), intern(bad)], has_more: true });
    expect(brief(judgeAll(page)), JSON.stringify(bad)).toEqual([{ requirementId, position: 1 }]);
  }
  // Open points: the four nullable fields of any type, a host name with a display name, upper-case UUIDs, extra fields.
  const open = intern({
    attached_vault_id: 'v',
    instructions: { a: 1 },
    progress: 42,
    name: 'Display Name',
    hostname: 'display-name.y',
    id: '3F1C2A9E-5B7D-4C1E-9A2B-7D6E5F4C3B2A',
    extra: true,
  });
  expect(judgeAll(seen('listInterns', 200, { data: [open], has_more: false }))).toEqual([]);
});

test("a regional host's refusal is judged by no rule, in any form; the same answer from the main host is", () => {
  // 4.3 "Requests sent to regional host names are refused": the status and body of the refusal are not shown.
  const html = { json: undefined, contentType: 'text/html' } as const;
  for (const [status, json, more] of [
    [404, undefined, html],
    [403, { error: { code: 'forbidden_region', message: 'use the global host' } }, {}],
    [401, { error: { code: 401 } }, {}],
  ] as const) {
    expect(judgeEvery(seen('listInterns', status, json, { ...more, regional: true })), `${status} regional`).toEqual(
      [],
    );
    expect(judgeEvery(seen('listInterns', status, json, more)).length, `${status} from the main host`).toBeGreaterThan(
      0,
    );
  }
});

test("an interns page broken two ways fails both rules: the order within it and the key's workspace", () => {
  const ws = '45bcb30d-e922-41b6-b4cb-21439c952204';
  const other = '9aae65ea-f836-41ba-96e1-967e9d7e230e';
  const older = intern({ createdAt: '2024-01-01T00:00:00.000Z', workspaceId: ws });
  const newerElsewhere = intern({ createdAt: '2025-01-01T00:00:00.000Z', workspaceId: other });
  const page = seen(
    'listInterns',
    200,
    { data: [older, newerElsewhere], has_more: false },
    { interns: { keyWorkspace: ws, filterNamed: true } },
  );
  const pageFindings = judgeAll(page).filter(
    (f) => f.requirementId === 'interns.order.newest-first' || f.requirementId === 'interns.intern.workspace-of-key',
  );
  expect(brief(pageFindings)).toEqual([
    { requirementId: 'interns.order.newest-first', position: 1 },
    { requirementId: 'interns.intern.workspace-of-key', position: 1 },
  ]);
});

test("the key's workspace is judged on a workspaceId that is there: a missing or non-string one is left to the fields of 2.5, a UUID in other case is the same workspace", () => {
  const ws = '45bcb30d-e922-41b6-b4cb-21439c952204';
  expect(foreignWorkspace(intern({ workspaceId: ws.toUpperCase() }), ws)).toBeUndefined();
  expect(foreignWorkspace({ ...intern({}), workspaceId: undefined }, ws)).toBeUndefined();
  expect(foreignWorkspace(intern({ workspaceId: 7 }), ws)).toBeUndefined();
  expect(foreignWorkspace(intern({ workspaceId: '9aae65ea-f836-41ba-96e1-967e9d7e230e' }), ws)).toBe(
    '9aae65ea-f836-41ba-96e1-967e9d7e230e',
  );
  const { workspaceId: _w, ...noWorkspace } = intern({});
  const page = seen(
    'listInterns',
    200,
    { data: [noWorkspace], has_more: false },
    { interns: { keyWorkspace: ws, filterNamed: true } },
  );
  const ids = judgeAll(page).map((f) => f.requirementId);
  expect(ids).toContain('interns.intern.fields-present');
  expect(ids).not.toContain('interns.intern.workspace-of-key');
});

const endpoint = (over: Record<string, unknown> = {}) => ({
  name: 'P | m',
  pricing: { prompt: '0.0000025', completion: '0.00001', request: '0', image: '0' },
  latency_last_30m: { p50: 1, p75: 2, p90: 3, p99: 4.5 },
  throughput_last_30m: { p50: 1, p75: 1, p90: 1, p99: 1 },
  uptime_last_5m: 100,
  uptime_last_30m: 99.5,
  uptime_last_1d: 0,
  quantization: null,
  status: null,
  ...over,
});
const architecture = {
  input_modalities: ['text'],
  output_modalities: ['text'],
  modality: 'text->text',
  instruct_type: null,
  tokenizer: null,
};
const model = (endpoints: unknown[], over: Record<string, unknown> = {}) => ({
  data: {
    id: 'openai/gpt-4o',
    name: 'GPT-4o',
    created: 1_715_367_049,
    description: 'd',
    architecture,
    endpoints,
    ...over,
  },
});
const FULL_PRICING = { prompt: '0.0000025', completion: '0.00001', request: '0', image: '0' };

test('endpoint records: pricing, percentiles and uptime at the endpoint position; absent fields are open', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ pricing: { prompt: '0.1', completion: 0.00001 } }, 'models.endpoint.pricing-decimal-strings'],
    // "A decimal number" in exponent notation is one (reading pricing-exponent): only the fixed-point SHOULD reports it.
    [{ pricing: { ...FULL_PRICING, prompt: '1e-6' } }, 'models.endpoint.pricing-fixed-point'],
    [{ pricing: { ...FULL_PRICING, prompt: '$0.1' } }, 'models.endpoint.pricing-decimal-strings'],
    // 2.4 "Four fields": a pricing object carries all four; "Numbers p50, p75, p90, p99": a percentile object all four.
    [{ pricing: { prompt: '0.1', completion: '0.2' } }, 'models.endpoint.pricing-decimal-strings'],
    [{ latency_last_30m: { p50: 1, p75: 2, p90: 3 } }, 'models.endpoint.percentiles'],
    [{ latency_last_30m: { p50: '1', p75: 2, p90: 3, p99: 4 } }, 'models.endpoint.percentiles'],
    [{ uptime_last_1d: 100.5 }, 'models.endpoint.uptime-numbers'],
    [{ uptime_last_5m: '99' }, 'models.endpoint.uptime-numbers'],
    [{ context_length: '8192' }, 'models.endpoint.schema'],
  ];
  for (const [bad, requirementId] of cases) {
    expect(
      brief(judgeAll(seen('listModelEndpoints', 200, model([endpoint(), endpoint(), endpoint(bad)])))),
      JSON.stringify(bad),
    ).toEqual([{ requirementId, position: 2 }]);
  }
  // Which endpoint fields are there is open (2.4): an endpoint with none, or without pricing, is no finding.
  expect(judgeAll(seen('listModelEndpoints', 200, model([{}, { name: 'n' }, endpoint()])))).toEqual([]);
  // The model's own fields are not open (2.3, 4.2 "a model with endpoints"): each one missing is a MUST.
  expect(brief(judgeAll(seen('listModelEndpoints', 200, { data: {} }))).map((f) => f.requirementId)).toEqual(
    Array(6).fill('models.model.fields-present'),
  );
  const { endpoints: _e, ...noEndpoints } = model([]).data;
  expect(brief(judgeAll(seen('listModelEndpoints', 200, { data: noEndpoints })))).toEqual([
    { requirementId: 'models.model.fields-present', position: undefined },
  ]);
  expect(
    brief(judgeAll(seen('listModelEndpoints', 200, model([], { architecture: { modality: 'text->text' } })))),
  ).toEqual(Array(4).fill({ requirementId: 'models.model.fields-present', position: undefined }));
  // Model-level rules with a requirement of their own (id shape, modality) are their checks', not the schema's.
  expect(
    judgeAll(
      seen(
        'listModelEndpoints',
        200,
        model([], { id: 'gpt-4o', architecture: { ...architecture, modality: 'text to text' } }),
      ),
    ),
  ).toEqual([]);
  expect(brief(judgeAll(seen('listModelEndpoints', 200, model([endpoint()]).data)))).toEqual([
    { requirementId: 'models.response.data-wrapper', position: undefined },
  ]);
  expect(brief(judgeAll(seen('listModelEndpoints', 200, model([], { endpoints: 'none' }))))).toEqual([
    { requirementId: 'models.model.schema', position: undefined },
  ]);
  // 4.2 "an object with one field `data`": a field beside data, but unknown fields inside the model are open.
  expect(brief(judgeAll(seen('listModelEndpoints', 200, { ...model([endpoint()]), links: {} })))).toEqual([
    { requirementId: 'models.response.one-field', position: undefined },
  ]);
  expect(judgeAll(seen('listModelEndpoints', 200, { data: { ...model([endpoint()]).data, x_extra: 1 } }))).toEqual([]);
  // Any number of fields beside data: one finding, five names, the rest counted.
  const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
  const [finding, ...rest] = judgeAll(seen('listModelEndpoints', 200, { ...model([endpoint()]), ...many }));
  expect(rest).toEqual([]);
  expect(finding?.message).toContain('(+9995 more)');
  expect(finding!.message.length).toBeLessThan(300);
});

test('error bodies: judged for the statuses each operation lists, on the precise requirement', () => {
  const filesError = (code: unknown, more: Record<string, unknown> = {}) => ({
    error: { code, message: 'Invalid request parameters', metadata: null },
    service_metadata: null,
    user_id: null,
    ...more,
  });
  const ids = (r: SeenResponse) => judgeAll(r).map((f) => f.requirementId);
  expect(ids(seen('listContainerFiles', 400, filesError(400)))).toEqual([]);
  expect(ids(seen('listContainerFiles', 400, filesError('400')))).toEqual(['files.errors.shape']);
  expect(ids(seen('listContainerFiles', 503, filesError(503, { user_id: 42 })))).toEqual(['general.errors.shape']);
  expect(ids(seen('listModelEndpoints', 404, { error: { code: 404, message: 'Resource not found' } }))).toEqual([]);
  expect(ids(seen('listModelEndpoints', 404, { error: { code: 'not_found', message: 'Resource not found' } }))).toEqual(
    ['models.errors.code-integer'],
  );
  expect(ids(seen('listModelEndpoints', 500, { code: 500, message: 'flat' }))).toEqual(['models.errors.shape']);
  expect(ids(seen('listInterns', 400, { error: { code: 'invalid_body', message: 'Invalid list query' } }))).toEqual([]);
  expect(ids(seen('listInterns', 403, { error: { code: 'forbidden', message: 'Forbidden' } }))).toEqual([
    'interns.errors.shape',
  ]);
  // Not listed by the operation (7.2 shows no 401; 7.3's string-coded statuses are not shown; no 3xx anywhere): no schema judged.
  expect(ids(seen('listModelEndpoints', 401, { anything: true }))).toEqual([]);
  expect(ids(seen('listInterns', 422, { anything: true }))).toEqual([]);
  expect(ids(seen('listContainerFiles', 404, { anything: true }))).toEqual([]);
});

// 7.1 "In these bodies error.code equals the HTTP status"; 7.3 writes integer codes as statuses; 7.2 ties none.
test('error codes: equal to the status on every container-files error and every integer-coded interns error, free on model endpoints', () => {
  const ids = (r: SeenResponse) => judgeAll(r).map((f) => f.requirementId);
  const filesError = (code: unknown) => ({
    error: { code, message: 'm', metadata: null },
    service_metadata: null,
    user_id: null,
  });
  expect(ids(seen('listContainerFiles', 503, filesError(503)))).toEqual([]);
  expect(ids(seen('listContainerFiles', 429, filesError(500)))).toEqual(['files.errors.code-equals-status']);
  expect(ids(seen('listInterns', 408, { error: { code: 408, message: 'Request timed out' } }))).toEqual([]);
  // 500 is no code of 7.3's table (a failure is internal_error): the shape's too.
  expect(ids(seen('listInterns', 408, { error: { code: 500, message: 'Request timed out' } })).sort()).toEqual([
    'interns.errors.code-equals-status',
    'interns.errors.shape',
  ]);
  // 4.3 / 7.3: an invalid query refused with the integer 400 carries a code the table does not have.
  expect(ids(seen('listInterns', 400, { error: { code: 400, message: 'Invalid list query' } }))).toEqual([
    'interns.errors.shape',
  ]);
  // A regional host's refusal is not shown (4.3 "refused"): whatever its body, no error rule judges it.
  expect(ids({ ...seen('listInterns', 404, { error: { code: 404, message: 'Not Found' } }), regional: true })).toEqual(
    [],
  );
  expect(ids(seen('listInterns', 422, { error: { code: 'invalid_body', message: 'Invalid list query' } }))).toEqual([]);
  expect(ids(seen('listModelEndpoints', 403, { error: { code: 'forbidden', message: 'Forbidden' } }))).toEqual([
    'models.errors.code-integer',
  ]);
  expect(ids(seen('listModelEndpoints', 404, { error: { code: 403, message: 'Resource not found' } }))).toEqual([]);
});

test('JSON: media type, parse and UTF-8 on documented statuses; duplicate names observed, not failed', () => {
  const ids = (r: SeenResponse) => judgeAll(r).map((f) => f.requirementId);
  expect(
    ids(
      seen(
        'listModelEndpoints',
        404,
        { error: { code: 404, message: 'x' } },
        { contentType: 'application/json; charset=utf-8' },
      ),
    ),
  ).toEqual([]);
  expect(
    ids(seen('listModelEndpoints', 404, { error: { code: 404, message: 'x' } }, { contentType: 'text/html' })),
  ).toEqual(['general.json-body']);
  // A +json type is JSON (reading errors-problem-json): only the application/json SHOULD reports it.
  expect(
    ids(
      seen(
        'listModelEndpoints',
        404,
        { error: { code: 404, message: 'x' } },
        { contentType: 'application/problem+json' },
      ),
    ),
  ).toEqual(['general.json-media-type']);
  expect(ids(seen('listModelEndpoints', 404, undefined))).toEqual(['general.json-body']);
  expect(ids(seen('listModelEndpoints', 302, undefined, { contentType: 'text/html' }))).toEqual([]);
  const latin1 = judgeAll(seen('listModelEndpoints', 200, model([]), { invalidUtf8Offset: 179 }));
  expect(latin1.map((f) => f.requirementId)).toEqual(['general.json-body']);
  expect(latin1[0]!.message).toContain('offset 179');
  const dup = seen('listContainerFiles', 200, list([]), { duplicateKey: '/data/0/id' });
  expect(judgeAll(dup)).toEqual([]);
  expect(duplicateKeyObservation(dup)).toEqual({
    requirementId: 'general.json-media-type',
    value: { duplicateKey: '/data/0/id', status: 200, url: dup.exchange.request.url, check: 'hand-built' },
  });
  expect(duplicateKeyObservation(seen('listContainerFiles', 200, list([])))).toBeUndefined();
});

// ------------------------------------------------------------------------------------------------
// What the reference sends (loopback, in-process)

/** GET on the reference as the suite's client would, read strictly (core/http/json-body.ts). */
async function fetchSeen(
  server: ReferenceServer,
  operation: Op,
  path: string,
  query: Record<string, string> = {},
  pathParams: Record<string, string> = {},
  auth: 'key' | 'none' = 'key',
): Promise<SeenResponse & JsonBodyFacts> {
  const url = new URL(server.baseUrl + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const r = await fetch(url, { headers: auth === 'key' ? { authorization: `Bearer ${server.keys.management}` } : {} });
  const decoded = decodeJsonBody(Buffer.from(await r.arrayBuffer()));
  const headers = Object.fromEntries(r.headers.entries());
  const exchange: Exchange = {
    request: { method: 'GET', url: url.toString(), headers: {} },
    response: { status: r.status, headers, body: decoded.text.slice(0, 4000), truncated: decoded.text.length > 4000 },
    durationMs: 0,
    retries: 0,
  };
  return {
    operation,
    check: 'reference',
    status: r.status,
    json: decoded.json,
    query,
    pathParams,
    auth,
    exchange,
    ...(decoded.invalidUtf8Offset !== undefined ? { invalidUtf8Offset: decoded.invalidUtf8Offset } : {}),
  };
}

/** The main container's whole listing at limit 1000, following last_id (bounded). */
async function listing(server: ReferenceServer): Promise<SeenResponse[]> {
  const id = server.fixtures.containerId;
  const pages: SeenResponse[] = [];
  let after: string | undefined;
  for (let n = 0; n < 2000; n++) {
    const p = await fetchSeen(
      server,
      'listContainerFiles',
      `/containers/${encodeURIComponent(id)}/files`,
      { limit: '1000', ...(after ? { after } : {}) },
      { container_id: id },
    );
    pages.push(p);
    const body = p.json as { has_more: boolean; last_id: string | null };
    if (!body.has_more || body.last_id === null) return pages;
    after = body.last_id;
  }
  throw new Error('listing did not end within 2000 pages');
}

/** Every response kind a run receives: the listing, interns pages (500, default, filtered), the model, errors. */
async function runResponses(server: ReferenceServer): Promise<SeenResponse[]> {
  const p = server.options.internsParams;
  const f = server.fixtures;
  const [author, slug] = f.model.split('/') as [string, string];
  const filesPath = `/containers/${encodeURIComponent(f.containerId)}/files`;
  return [
    ...(await listing(server)),
    await fetchSeen(
      server,
      'listContainerFiles',
      `/containers/${encodeURIComponent(f.emptyContainerId)}/files`,
      {},
      { container_id: f.emptyContainerId },
    ),
    await fetchSeen(server, 'listContainerFiles', filesPath, { limit: '0' }, { container_id: f.containerId }),
    await fetchSeen(server, 'listContainerFiles', filesPath, {}, { container_id: f.containerId }, 'none'),
    await fetchSeen(server, 'listInterns', '/interns', { [p.limit]: '500' }),
    await fetchSeen(server, 'listInterns', '/interns'),
    await fetchSeen(server, 'listInterns', '/interns', { [p.status]: 'running,stopped' }),
    await fetchSeen(server, 'listInterns', '/interns', { [p.limit]: '0' }),
    await fetchSeen(server, 'listInterns', '/interns', {}, {}, 'none'),
    await fetchSeen(server, 'listModelEndpoints', `/models/${author}/${slug}/endpoints`, {}, { author, slug }),
    await fetchSeen(server, 'listModelEndpoints', `/models/${f.missingModel}/endpoints`),
  ];
}

async function withReference<T>(
  options: Partial<ReferenceOptions>,
  fn: (s: ReferenceServer) => Promise<T>,
): Promise<T> {
  const server = await startReference(options);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

const findingsOf = (responses: readonly SeenResponse[]) => responses.flatMap((r) => judgeAll(r).map((f) => ({ f, r })));

test('the plain reference and every conformant variant: no failure on anything the run receives', async () => {
  test.setTimeout(180_000);
  const { requirement } = await import('../core/document/catalogue.ts');
  const bad: string[] = [];
  for (const variant of [{ name: 'plain', options: {} as Partial<ReferenceOptions> }, ...CONFORMANT_VARIANTS]) {
    const found = await withReference(variant.options, async (s) => findingsOf(await runResponses(s)));
    // A variant made of another reading of the words may miss a SHOULD (reported, never failed); a MUST
    // never, and a variant of silent choices (no reading switched on) misses nothing at all.
    const reading = (variant.options.readings ?? []).length > 0;
    bad.push(
      ...found
        .filter(({ f }) => !reading || requirement(f.requirementId).level === 'MUST')
        .map(({ f }) => `${variant.name}: ${f.requirementId}: ${f.message}`),
    );
  }
  expect(bad).toEqual([]);
});

const POSITIONS: readonly FaultPosition[] = ['first', 'middle', 'last'];
const FILE_FAULTS = RECORD_FAULTS.filter((f) => f.operation === 'listContainerFiles');

for (const fault of FILE_FAULTS) {
  for (const faultPosition of POSITIONS) {
    test(`${fault.name} at the ${faultPosition} file of the listing is found on ${fault.breaks.join(', ')} at its position`, async () => {
      await withReference({ faults: [fault.name], faultPosition }, async (s) => {
        const pages = await listing(s);
        const found = findingsOf(pages);
        expect(found.map(({ f }) => f.requirementId)).toEqual([...fault.breaks]);
        // The listing position of the bad file, and where it sits in the page that carried it.
        const all = pages.flatMap((p) =>
          (p.json as { data: Array<{ path: string }> }).data.map((_file, i) => ({ p, i })),
        );
        const at = all[recordIndex(faultPosition, all.length)]!;
        expect(all.length).toBeGreaterThan(1300);
        expect(found[0]!.r).toBe(at.p);
        expect(found[0]!.f.position).toBe(at.i);
        expect(found[0]!.f.exchange).toBe(at.p.exchange);
        if (faultPosition === 'last')
          expect(pages.indexOf(at.p), 'past at least two scan-bound pages').toBeGreaterThanOrEqual(3);
      });
    });
  }
}

for (const name of ['interns-record-status-paused', 'interns-record-created-at-offset', 'interns-record-no-vault-id']) {
  const fault = FAULTS.find((f) => f.name === name)!;
  for (const faultPosition of POSITIONS) {
    test(`${name} at the ${faultPosition} of the key's 500 newest is found on ${fault.breaks.join(', ')} at its position`, async () => {
      await withReference({ faults: [name], faultPosition }, async (s) => {
        const page = await fetchSeen(s, 'listInterns', '/interns', { limit: '500' });
        const found = judgeAll(page);
        expect(brief(found)).toEqual([{ requirementId: fault.breaks[0], position: recordIndex(faultPosition, 500) }]);
        // The default page (50) shows it only when it is the first: deep records are the judges' to find.
        expect(judgeAll(await fetchSeen(s, 'listInterns', '/interns')).length).toBe(faultPosition === 'first' ? 1 : 0);
        // No status filter selects a status outside section 3, so filtered pages stay clean.
        if (name === 'interns-record-status-paused')
          expect(
            judgeAll(
              await fetchSeen(s, 'listInterns', '/interns', { status: 'running,stopped,failed,queued', limit: '500' }),
            ),
          ).toEqual([]);
      });
    });
  }
}

for (const name of [
  'models-record-endpoint-pricing-number',
  'models-record-pricing-two-fields',
  'models-record-latency-no-p99',
]) {
  const fault = FAULTS.find((f) => f.name === name)!;
  for (const faultPosition of POSITIONS) {
    test(`${name} at the ${faultPosition} endpoint is found at its position`, async () => {
      await withReference({ faults: [name], faultPosition }, async (s) => {
        const found = judgeAll(await fetchSeen(s, 'listModelEndpoints', '/models/openai/gpt-4o/endpoints'));
        // The model has four endpoints: the middle one is the third.
        expect(brief(found)).toEqual([
          { requirementId: fault.breaks[0], position: { first: 0, middle: 2, last: 3 }[faultPosition] },
        ]);
      });
    });
  }
}

test('models-description-latin1: the JSON requirement fails with the offset of the 0xE9 byte', async () => {
  await withReference({ faults: ['models-description-latin1'] }, async (s) => {
    const r = await fetch(`${s.baseUrl}/models/openai/gpt-4o/endpoints`, {
      headers: { authorization: `Bearer ${s.keys.management}` },
    });
    const bytes = Buffer.from(await r.arrayBuffer());
    const page = await fetchSeen(s, 'listModelEndpoints', '/models/openai/gpt-4o/endpoints');
    const found = judgeAll(page);
    expect(found.map((f) => f.requirementId)).toEqual(['general.json-body']);
    expect(bytes[page.invalidUtf8Offset!]).toBe(0xe9);
    expect(found[0]!.message).toContain(`offset ${page.invalidUtf8Offset}`);
    // Everything else of the body is still judged: no other finding.
    expect((page.json as { data: { description: string } }).data.description).toMatch(/\(caf\ufffd\)$/);
  });
});

test('every record fault is in the catalogue, breaks one requirement and is exercised above', () => {
  for (const f of RECORD_FAULTS) {
    expect(FAULTS).toContainEqual(f);
    expect(f.breaks, f.name).toHaveLength(1);
  }
  expect(RECORD_FAULTS.map((f) => f.name).sort()).toEqual([
    'files-record-created-at-millis',
    'files-record-id-other-path',
    'files-record-object-file',
    'files-record-source-user',
    'interns-record-created-at-offset',
    'interns-record-no-vault-id',
    'interns-record-status-paused',
    'models-description-latin1',
    'models-record-endpoint-pricing-number',
    'models-record-latency-no-p99',
    'models-record-pricing-two-fields',
  ]);
});

// spec/readings.yaml decisions stated-counts and limit-spellings, applied by the judges alike.
test('a stated count binds both ways: data alone beside the wrapper, the four prices alone in pricing; other objects stay open', () => {
  const prices = { prompt: '0.1', completion: '0.2', request: '0', image: '0' };
  expect(pricingRule({ pricing: prices })).toBeUndefined();
  expect(pricingRule({ pricing: { ...prices, discount: '0' } })).toMatchObject({
    requirementId: 'models.endpoint.pricing-decimal-strings',
    message: expect.stringMatching(/^pricing has 5 fields, the four and "discount"; 2\.4: "Four fields/),
  });
  expect(pricingRule({ pricing: { prompt: '0.1', completion: '0.2' } })?.requirementId).toBe(
    'models.endpoint.pricing-decimal-strings',
  );
  expect(modelWrapperViolation({ data: {}, links: {} })?.message).toMatch(
    /^the 200 body has 2 fields, data and "links"; 4\.2: "an object with one field `data`"$/,
  );
  // No count stated: a fifth percentile is open.
  expect(percentilesRule({ latency_last_30m: { p50: 1, p75: 2, p90: 3, p99: 4, p95: 3.5 } })).toBeUndefined();
});

test('a page is held to its limit as the suite declares the spelling: plain digits bind, other spellings only the maximum', () => {
  expect(limitOfRequest(undefined)).toBeUndefined();
  expect(limitOfRequest('')).toBeUndefined();
  expect(limitOfRequest('5')).toBe(5);
  expect(limitOfRequest('0')).toBe(1);
  expect(limitOfRequest('5000')).toBe(1000);
  // general.integer-spelling: "05", "1e2", "+5", "2.0" may be read as their integer or as no limit at all.
  for (const spelled of ['05', '1e2', '+5', '2.0', '0x10']) expect(limitOfRequest(spelled), spelled).toBe(1000);
  expect(limitOfRequest('abc')).toBe(1000);
});
