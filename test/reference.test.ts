/** Own tests of the reference implementation (reference/). */
import { test, expect } from '@playwright/test';
import { startReference } from '../reference/server.ts';
import { compareUtf8, fileId, pathFromFileId } from '../reference/ids.ts';
import { INTERN_STATUSES, visiblePaths } from '../reference/data.ts';
import type { ReferenceServer } from '../reference/options.ts';
import { jsonText } from '../reference/json-text.ts';
import fc from 'fast-check';

let ref: ReferenceServer;
test.beforeAll(async () => {
  ref = await startReference();
});
test.afterAll(async () => {
  await ref?.close();
});

interface Res {
  status: number;
  contentType: string | null;
  body: any;
}

async function get(
  server: ReferenceServer,
  path: string,
  auth: string | null = `Bearer ${server.keys.management}`,
  method = 'GET',
): Promise<Res> {
  const headers: Record<string, string> = {};
  if (auth !== null) headers.authorization = auth;
  const r = await fetch(server.baseUrl + path, { method, headers });
  const text = await r.text();
  return { status: r.status, contentType: r.headers.get('content-type'), body: text ? JSON.parse(text) : null };
}
const files = (server: ReferenceServer, container: string, query = '') =>
  get(server, `/containers/${encodeURIComponent(container)}/files${query}`);

interface Page {
  data: any[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/**
 * Follows has_more/last_id to the end and checks the 4.1 rules on every page. Checks are plain
 * comparisons collected into `problems` and asserted once: thousands of expect() calls are slow.
 */
async function traverse(
  server: ReferenceServer,
  container: string,
  limit: number,
): Promise<{ paths: string[]; pages: Page[] }> {
  const paths: string[] = [];
  const pages: Page[] = [];
  const problems: string[] = [];
  let after: string | null = null;
  for (let n = 0; n < 2000; n++) {
    const q: string = `?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const r = await files(server, container, q);
    expect(r.status).toBe(200);
    const p = r.body as Page;
    pages.push(p);
    if (p.data.length > limit) problems.push(`page ${n}: ${p.data.length} > limit`);
    const first = server.options.firstIdNull ? null : (p.data[0]?.id ?? null);
    if (p.first_id !== first) problems.push(`page ${n}: first_id ${p.first_id}`);
    for (const f of p.data) {
      const ok =
        f.object === 'container.file' &&
        f.container_id === container &&
        f.source === 'assistant' &&
        Number.isInteger(f.bytes) &&
        Number.isInteger(f.created_at) &&
        pathFromFileId(f.id) === f.path;
      if (!ok) problems.push(`page ${n}: bad file ${JSON.stringify(f)}`);
      paths.push(f.path);
    }
    if (!p.has_more) {
      const last = p.data.length ? p.data.at(-1).id : null; // rules 2 and 4
      if (p.last_id !== last) problems.push(`last page: last_id ${p.last_id}`);
      expect(problems).toEqual([]);
      return { paths, pages };
    }
    if (p.last_id === null) problems.push(`page ${n}: has_more with null last_id`); // rule 1
    after = p.last_id;
  }
  throw new Error('traversal did not end');
}

/** Index pairs that are not strictly increasing in byte-wise UTF-8 order. */
function outOfOrder(paths: readonly string[]): string[] {
  const bad: string[] = [];
  for (let i = 1; i < paths.length; i++)
    if (compareUtf8(paths[i - 1]!, paths[i]!) >= 0) bad.push(`${paths[i - 1]} !< ${paths[i]}`);
  return bad;
}

test.describe('ids', () => {
  test('round trip, padding optional, strict rejection', () => {
    for (const p of ['a', 'ab', 'abc', 'intl/\u{1f600}-grin.txt', 'b64/~~~.bin']) {
      expect(pathFromFileId(fileId(p, { padded: false }))).toBe(p);
      expect(pathFromFileId(fileId(p, { padded: true }))).toBe(p);
    }
    expect(fileId('a', { padded: true })).toBe('cfile_YQ==');
    expect(fileId('a', { padded: false })).toBe('cfile_YQ');
    for (const bad of [
      '',
      'cfile_',
      'file_YQ',
      'cfile_YQ=',
      'cfile_YQ===',
      'cfile_Y',
      'cfile_YR',
      'cfile_fn5+',
      'cfile_Pz8/',
      'cfile_/w',
      'cfile_ YQ',
      'CFILE_YQ',
    ]) {
      expect(pathFromFileId(bad), bad).toBeNull();
    }
  });

  test('some path has + or / in standard base64, and ids are base64url', () => {
    const all = visiblePaths(ref.fixtures.containerId);
    const std = all.filter((p) => /[+/]/.test(Buffer.from(p, 'utf8').toString('base64')));
    expect(std.length).toBeGreaterThan(0);
    expect(all.some((p) => Buffer.from(p).toString('base64').includes('+'))).toBe(true);
    expect(all.some((p) => Buffer.from(p).toString('base64').includes('/'))).toBe(true);
    for (const p of std) expect(fileId(p, { padded: false })).toMatch(/^cfile_[A-Za-z0-9_-]+$/);
  });
});

test.describe('JSON text', () => {
  test('jsonText writes what JSON.stringify writes, frozen parts written once and kept', () => {
    // Values of every JSON kind, with what JSON.stringify leaves out or turns to null, Dates (toJSON),
    // Buffers and objects without a prototype; some parts frozen, some frozen and then seen again.
    const leaf = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.date({ noInvalidDate: true }),
      fc.constant(Buffer.from('ab')),
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object'), tie('bare')),
      array: fc.array(tie('node'), { maxLength: 4 }),
      object: fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 4 }),
      bare: tie('object').map((o) => Object.assign(Object.create(null) as object, o)),
    })).node;
    const frozenSome = (v: unknown, k: number): unknown => {
      if (typeof v !== 'object' || v === null || Buffer.isBuffer(v) || v instanceof Date) return v;
      for (const child of Object.values(v)) frozenSome(child, k + 1);
      return k % 2 === 0 ? Object.freeze(v) : v;
    };
    fc.assert(
      fc.property(tree, fc.nat(1), (value, k) => {
        const v = frozenSome(value, k);
        expect(jsonText(v)).toBe(JSON.stringify(v));
        expect(jsonText([v, v])).toBe(JSON.stringify([v, v]));
      }),
      { numRuns: 500, seed: 11 },
    );
  });
});

test.describe('general', () => {
  test('unknown path 404, non-GET 405, both with an error body', async () => {
    for (const path of [
      '/nope',
      '/interns/',
      '/containers//files',
      '/models/openai/endpoints',
      '/containers/x/files/extra',
    ]) {
      const r = await get(ref, path);
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual({ error: { code: 404, message: 'Resource not found' } });
    }
    const outside = await fetch(`${ref.baseUrl.replace('/v1', '')}/interns`, {
      headers: { authorization: `Bearer ${ref.keys.management}` },
    });
    expect(outside.status).toBe(404);
    const r = await get(ref, '/interns', `Bearer ${ref.keys.management}`, 'POST');
    expect(r.status).toBe(405);
    expect(r.body.error.code).toBe(405);
  });

  test('content type is options.contentType on success and error', async () => {
    expect((await get(ref, '/interns')).contentType).toBe('application/json');
    expect((await get(ref, '/interns', null)).contentType).toBe('application/json');
    const other = await startReference({ contentType: 'application/json; charset=utf-8' });
    try {
      expect((await get(other, `/models/${other.fixtures.model}/endpoints`)).contentType).toBe(
        'application/json; charset=utf-8',
      );
    } finally {
      await other.close();
    }
  });

  test('received log records method and url', async () => {
    const before = ref.received.length;
    await get(ref, '/interns?limit=3&x=%20y');
    await get(ref, '/nope', null, 'DELETE');
    expect(ref.received.slice(before)).toEqual([
      { method: 'GET', url: '/v1/interns?limit=3&x=%20y' },
      { method: 'DELETE', url: '/v1/nope' },
    ]);
  });

  test('unknown fault names are refused at start', async () => {
    await expect(startReference({ faults: ['no-such-fault'] })).rejects.toThrow(/unknown reference fault/);
  });
});

test.describe('auth', () => {
  const unauthenticated = (k: string) => [
    null,
    'Bearer ',
    'Bearer',
    `Basic ${k}`,
    `Token ${k}`,
    'Bearer nope',
    `Bearer ${k}x`,
    `${k}`,
  ];

  test('401 on every operation, in each operation error shape', async () => {
    const k = ref.keys.management;
    for (const auth of unauthenticated(k)) {
      const rf = await get(ref, `/containers/${ref.fixtures.containerId}/files`, auth);
      expect(rf.status, String(auth)).toBe(401);
      expect(rf.body).toEqual({
        error: { code: 401, message: 'Missing Authentication header', metadata: null },
        service_metadata: null,
        user_id: null,
      });
      const rm = await get(ref, `/models/${ref.fixtures.model}/endpoints`, auth);
      expect(rm.status).toBe(401);
      expect(rm.body.error.code).toBe(401);
      const ri = await get(ref, '/interns', auth);
      expect(ri.status).toBe(401);
      expect(ri.body).toEqual({ error: { code: 401, message: 'Invalid or missing API key' } });
    }
  });

  test('scheme is case-insensitive', async () => {
    expect((await get(ref, '/interns', `bearer ${ref.keys.management}`)).status).toBe(200);
    expect((await get(ref, '/interns', `BEARER ${ref.keys.management}`)).status).toBe(200);
  });

  test('restricted key: 403 on every operation by default', async () => {
    const auth = `Bearer ${ref.keys.restricted}`;
    const rf = await get(ref, `/containers/${ref.fixtures.containerId}/files`, auth);
    expect(rf.status).toBe(403);
    expect(rf.body).toEqual({
      error: { code: 403, message: 'Only management keys can perform this operation', metadata: null },
      service_metadata: null,
      user_id: null,
    });
    const rm = await get(ref, `/models/${ref.fixtures.model}/endpoints`, auth);
    expect(rm.status).toBe(403);
    expect(rm.body).toEqual({ error: { code: 403, message: 'Only management keys can perform this operation' } });
    const ri = await get(ref, '/interns', auth);
    expect(ri.status).toBe(403);
    expect(ri.body).toEqual({ error: { code: 403, message: 'Forbidden' } });
  });

  test('restrictedKeyAcceptedBy lets the restricted key through', async () => {
    const other = await startReference({ restrictedKeyAcceptedBy: ['listInterns'] });
    try {
      expect((await get(other, '/interns', `Bearer ${other.keys.restricted}`)).status).toBe(200);
      expect(
        (await get(other, `/models/${other.fixtures.model}/endpoints`, `Bearer ${other.keys.restricted}`)).status,
      ).toBe(403);
    } finally {
      await other.close();
    }
  });

  test('order: 401 before 403 before 400', async () => {
    const bad = `/containers/${ref.fixtures.containerId}/files?limit=0`;
    expect((await get(ref, bad, null)).status).toBe(401);
    expect((await get(ref, bad, `Bearer ${ref.keys.restricted}`)).status).toBe(403);
    expect((await get(ref, bad)).status).toBe(400);
    expect((await get(ref, '/interns?limit=0', null)).status).toBe(401);
    expect((await get(ref, '/interns?limit=0', `Bearer ${ref.keys.restricted}`)).status).toBe(403);
  });
});

test.describe('listContainerFiles', () => {
  test('default page size 100 and page shape', async () => {
    // The very first page ends at the `.sync/` hidden run after 4 files; start after that run.
    const r = await files(ref, ref.fixtures.containerId, `?after=${fileId('b', { padded: false })}`);
    expect(r.status).toBe(200);
    expect(r.body.object).toBe('list');
    expect(r.body.data).toHaveLength(100);
    expect(r.body.has_more).toBe(true);
  });

  test('limit bounds', async () => {
    // The first page before the `.sync/` hidden run has few files; start after it for the sizes.
    const after = `&after=${fileId('b', { padded: false })}`;
    expect((await files(ref, ref.fixtures.containerId, `?limit=1${after}`)).body.data).toHaveLength(1);
    expect((await files(ref, ref.fixtures.containerId, `?limit=1000${after}`)).body.data.length).toBeGreaterThan(64);
    for (const bad of [
      '0',
      '-1',
      '1001',
      'abc',
      '1.5',
      '1e2',
      '',
      '%205',
      '05',
      '+5',
      '10000000000000000000000',
      '5&limit=6',
    ]) {
      const r = await files(ref, ref.fixtures.containerId, `?limit=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body).toEqual({
        error: { code: 400, message: 'Invalid request parameters', metadata: null },
        service_metadata: null,
        user_id: null,
      });
    }
  });

  test('malformed after is 400', async () => {
    for (const bad of [
      '',
      'abc',
      'cfile_',
      'cfile_fn5+',
      'cfile_Pz8/',
      'cfile_Y',
      'cfile_YQ=',
      'cfile_%FF',
      'cfile_gA',
      fileId('a', { padded: false }).toUpperCase(),
    ]) {
      const r = await files(ref, ref.fixtures.containerId, `?after=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
    }
  });

  for (const limit of [1000, 37]) {
    test(`full traversal at limit ${limit}`, async () => {
      const { paths, pages } = await traverse(ref, ref.fixtures.containerId, limit);
      expect(paths.length).toBeGreaterThan(1000);
      expect(outOfOrder(paths)).toEqual([]);
      expect(paths).toEqual(visiblePaths(ref.fixtures.containerId));
      // Pages that end at the scan bound: empty data, has_more true, last_id not a listed id.
      const atBound = pages.filter((p) => p.data.length === 0 && p.has_more);
      expect(atBound.length).toBeGreaterThan(0);
      for (const p of atBound) expect(paths).not.toContain(pathFromFileId(p.last_id!)); // rule 3: a hidden object
      // has_more is false only once no visible file remains, so the last page is never empty.
      expect(pages.at(-1)!.has_more).toBe(false);
      expect(pages.at(-1)!.data.length).toBeGreaterThan(0);
      // The data are hard: byte order differs from UTF-16 order and from locale order.
      expect([...paths].sort()).not.toEqual(paths);
      expect([...paths].sort((a, b) => a.localeCompare(b))).not.toEqual(paths);
    });
  }

  test('traversal is the same at limit 1000 and 37', async () => {
    const a = await traverse(ref, ref.fixtures.containerId, 1000);
    const b = await traverse(ref, ref.fixtures.containerId, 37);
    expect(b.paths).toEqual(a.paths);
  });

  test('after a path not in the container resumes strictly after it', async () => {
    const all = visiblePaths(ref.fixtures.containerId);
    for (const probe of ['a\u0001', 'intl/\u{1f600}', 'intl/\ue000', 'm/', 'zzzz', '\u0000']) {
      expect(all).not.toContain(probe);
      const expected = all.filter((p) => compareUtf8(p, probe) > 0).slice(0, 3);
      const r = await files(ref, ref.fixtures.containerId, `?limit=3&after=${fileId(probe, { padded: false })}`);
      expect(r.status).toBe(200);
      // Follow scan-bound pages until files appear.
      let body = r.body as Page;
      const got: string[] = body.data.map((f) => f.path);
      while (got.length === 0 && body.has_more) {
        body = (await files(ref, ref.fixtures.containerId, `?limit=3&after=${body.last_id}`)).body;
        got.push(...body.data.map((f) => f.path));
      }
      expect(got, probe).toEqual(expected);
    }
  });

  test('after an existing id resumes after it; padded and unpadded equal', async () => {
    const all = visiblePaths(ref.fixtures.containerId);
    const p = all[500]!;
    const r1 = await files(ref, ref.fixtures.containerId, `?limit=5&after=${fileId(p, { padded: false })}`);
    const r2 = await files(
      ref,
      ref.fixtures.containerId,
      `?limit=5&after=${encodeURIComponent(fileId(p, { padded: true }))}`,
    );
    expect(r1.body).toEqual(r2.body);
    expect(r1.body.data.length).toBeGreaterThan(0);
    expect(compareUtf8(r1.body.data[0].path, p)).toBeGreaterThan(0);
  });

  test('other containers: restarted, session, empty, unknown', async () => {
    const restarted = await traverse(ref, ref.fixtures.restartedContainerId, 7);
    expect(restarted.paths).toHaveLength(30);
    const session = await traverse(ref, ref.fixtures.sessionContainerId, 100);
    expect(session.paths).toHaveLength(20);
    for (const id of [ref.fixtures.emptyContainerId, 'cntr_unknown', 'a b/c%d']) {
      const r = await files(ref, id);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    }
    // container_id echoes the decoded path parameter exactly.
    const r = await get(ref, `/containers/${encodeURIComponent(ref.fixtures.sessionContainerId)}/files?limit=1`);
    expect(r.body.data[0].container_id).toBe(ref.fixtures.sessionContainerId);
  });

  test('variants: paddedIds, firstIdNull, extraFields, small scanBound', async () => {
    const other = await startReference({ paddedIds: true, firstIdNull: true, extraFields: true, scanBound: 5 });
    try {
      const { paths, pages } = await traverse(other, other.fixtures.containerId, 1000);
      expect(paths).toEqual(visiblePaths(other.fixtures.containerId));
      expect(pages.every((p) => p.first_id === null)).toBe(true);
      const r = await files(other, other.fixtures.containerId, '?limit=20');
      expect(r.body.x_reference).toBe(true);
      expect(r.body.data.length).toBeGreaterThan(0);
      expect(r.body.data.every((f: any) => f.x_reference === true && f.id.length % 4 === 2)).toBe(true); // "cfile_" + 4n
    } finally {
      await other.close();
    }
  });
});

test.describe('listModelEndpoints', () => {
  test('model with endpoints', async () => {
    const r = await get(ref, `/models/${ref.fixtures.model}/endpoints`);
    expect(r.status).toBe(200);
    const m = r.body.data;
    expect(m.id).toBe(ref.fixtures.model);
    expect(Number.isInteger(m.created)).toBe(true);
    expect(m.architecture.modality).toMatch(/^.+->.+$/);
    expect(m.endpoints.length).toBeGreaterThanOrEqual(4);
    for (const e of m.endpoints) {
      for (const k of ['prompt', 'completion', 'request', 'image']) expect(e.pricing[k]).toMatch(/^\d+(\.\d+)?$/);
      expect(Object.keys(e.latency_last_30m)).toEqual(['p50', 'p75', 'p90', 'p99']);
      expect(Number.isInteger(e.status)).toBe(true);
      expect(typeof e.supports_implicit_caching).toBe('boolean');
      expect(typeof e.uptime_last_1d).toBe('number');
    }
  });

  test('unknown model 404; percent-encoding decoded exactly once', async () => {
    const r = await get(ref, `/models/${ref.fixtures.missingModel}/endpoints`);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: { code: 404, message: 'Resource not found' } });
    expect((await get(ref, '/models/meta%2Dllama/llama-3.1-70b-instruct/endpoints')).status).toBe(200);
    expect((await get(ref, '/models/mistralai/mistral-7b-instruct%3Afree/endpoints')).status).toBe(200);
    expect((await get(ref, '/models/meta%252Dllama/llama-3.1-70b-instruct/endpoints')).status).toBe(404);
    expect((await get(ref, '/models/openai%2Fgpt-4o/x/endpoints')).status).toBe(404);
  });

  test('sparseEndpoints variant', async () => {
    const other = await startReference({ sparseEndpoints: true });
    try {
      const m = (await get(other, `/models/${other.fixtures.model}/endpoints`)).body.data;
      expect(m.architecture.instruct_type).toBeNull();
      expect(m.endpoints[0].status).toBeNull();
      expect(m.endpoints.some((e: any) => !('max_prompt_tokens' in e))).toBe(true);
      expect(m.endpoints.some((e: any) => !('uptime_last_1d' in e))).toBe(true);
    } finally {
      await other.close();
    }
  });
});

test.describe('listInterns', () => {
  const order = (a: any, b: any) =>
    a.createdAt === b.createdAt ? (a.id > b.id ? -1 : 1) : a.createdAt > b.createdAt ? -1 : 1;

  test('default page size, newest first, own workspace only', async () => {
    const r = await get(ref, '/interns');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(50);
    expect(r.body.has_more).toBe(true);
    const all = (await get(ref, '/interns?limit=500')).body.data as any[];
    expect(all).toHaveLength(500);
    expect([...all].sort(order)).toEqual(all);
    expect(all.some((x, i) => i > 0 && x.createdAt === all[i - 1].createdAt)).toBe(true); // ties exist
    expect(all.every((x) => x.workspaceId === ref.fixtures.workspaceId)).toBe(true);
    const bad = all.filter(
      (x) =>
        x.hostname !== `${x.name}.interns.example.dev` ||
        !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(x.createdAt) ||
        (x.lastFailureMessage === null) !== (x.status !== 'failed' && x.status !== 'destroy_failed'),
    );
    expect(bad).toEqual([]);
  });

  test('status filter', async () => {
    for (const s of INTERN_STATUSES) {
      const r = await get(ref, `/interns?limit=500&status=${s}`);
      expect(r.status).toBe(200);
      expect(r.body.data.length, s).toBeGreaterThan(0);
      expect(r.body.data.every((x: any) => x.status === s)).toBe(true);
    }
    const two = await get(ref, '/interns?limit=500&status=failed,running');
    expect(new Set(two.body.data.map((x: any) => x.status))).toEqual(new Set(['failed', 'running']));
    for (const bad of ['', 'nope', 'running,', ',running', 'RUNNING', 'running,,failed', 'running&status=failed']) {
      const r = await get(ref, `/interns?status=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body).toEqual({ error: { code: 'invalid_body', message: 'Invalid list query' } });
    }
  });

  test('limit bounds', async () => {
    expect((await get(ref, '/interns?limit=1')).body.data).toHaveLength(1);
    for (const bad of ['0', '501', '-1', 'x', '', '1.0', '07'])
      expect((await get(ref, `/interns?limit=${bad}`)).status, bad).toBe(400);
  });

  test('workspace filter: own ok, other 403, malformed invalid_body', async () => {
    expect((await get(ref, `/interns?workspace_id=${ref.fixtures.workspaceId}`)).status).toBe(200);
    expect((await get(ref, `/interns?workspace_id=${ref.fixtures.workspaceId.toUpperCase()}`)).status).toBe(200);
    const other = await get(ref, `/interns?workspace_id=${ref.fixtures.otherWorkspaceId}`);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: { code: 403, message: 'Forbidden' } });
    expect((await get(ref, '/interns?workspace_id=not-a-uuid')).status).toBe(400);
    expect((await get(ref, '/interns?unknown_param=1')).status).toBe(200);
  });

  test('variant: parameter names, string-error status, default size', async () => {
    const other = await startReference({
      internsParams: { limit: 'page_size', status: 'statuses', workspace: 'workspace' },
      stringErrorStatus: { invalid_body: 422, not_found: 404, internal_error: 500 },
      internsDefaultPageSize: 20,
    });
    try {
      expect((await get(other, '/interns')).body.data).toHaveLength(20);
      expect((await get(other, '/interns?page_size=3')).body.data).toHaveLength(3);
      expect((await get(other, '/interns?limit=0')).status).toBe(200); // not a parameter here
      expect((await get(other, '/interns?statuses=bogus')).status).toBe(422);
    } finally {
      await other.close();
    }
  });
});

test('references started with equal options give an answer built once; other options build their own', async () => {
  const url = `${new URL(ref.baseUrl).pathname}/interns?limit=7`;
  const asked = (server: ReferenceServer) =>
    server.serve('main', { method: 'GET', url, headers: { authorization: `Bearer ${server.keys.management}` } });
  const first = await startReference({ internsDefaultPageSize: 7 });
  const again = await startReference({ internsDefaultPageSize: 7 });
  const other = await startReference({ internsDefaultPageSize: 7, extraFields: true });
  try {
    const answer = asked(first);
    expect(answer.status).toBe(200);
    expect(asked(again)).toBe(answer);
    expect(asked(other)).not.toBe(answer);
    expect(asked(other).body.toString('utf8')).not.toBe(answer.body.toString('utf8'));
  } finally {
    await Promise.all([first.close(), again.close(), other.close()]);
  }
});
