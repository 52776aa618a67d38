import { test, expect } from '@playwright/test';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  compileOwnSchema,
  openApiDocument,
  schemaNames,
  validate,
  validatorFor,
  type SchemaName,
  type SchemaViolation,
} from '../spec/schemas.ts';
import { INTERN_STATES } from '../generators/arbitraries/interns-status.ts';

// Tests of spec/openapi.yaml and spec/schemas.ts. A schema that is too strict fails a
// conformant server (false failure) and one that is too loose lets a fault through, so every
// schema gets both accepted and rejected samples, with attention to the "not shown" points.

/** A deep copy with `patch` applied; a patch value of `undefined` deletes the key. */
function withFields<T extends object>(base: T, patch: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(base) as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  }
  return copy;
}

function expectValid(name: SchemaName, value: unknown): void {
  expect(validate(name, value), `${name} should accept ${JSON.stringify(value)}`).toEqual([]);
}

/** Asserts `value` is rejected and that some violation has the given instancePath (and keyword). */
function expectViolation(name: SchemaName, value: unknown, path: string, keyword?: string): SchemaViolation[] {
  const violations = validate(name, value);
  expect(violations.length, `${name} should reject ${JSON.stringify(value)}`).toBeGreaterThan(0);
  const match = violations.find((v) => v.path === path && (keyword === undefined || v.keyword === keyword));
  expect(
    match,
    `expected a violation at '${path}'${keyword ? ` (${keyword})` : ''}, got ${JSON.stringify(violations)}`,
  ).toBeTruthy();
  return violations;
}

const file = {
  id: `cfile_${Buffer.from('src/main.py').toString('base64url')}`,
  object: 'container.file',
  container_id: 'cntr_123',
  bytes: 42,
  created_at: 1_700_000_000,
  path: 'src/main.py',
  source: 'assistant',
};

const fileList = { object: 'list', data: [file], first_id: file.id, last_id: file.id, has_more: false };

const pricing = { prompt: '0.000001', completion: '0.000002', request: '0', image: '0.0015' };
const percentiles = { p50: 120, p75: 180.5, p90: 300, p99: 900 };
const endpoint = {
  name: 'Provider | author/model',
  model_id: 'author/model',
  model_name: 'Model',
  provider_name: 'Provider',
  tag: 'provider/fp8',
  context_length: 128000,
  max_completion_tokens: 4096,
  max_prompt_tokens: 124000,
  quantization: 'fp8',
  status: 0,
  supported_parameters: ['temperature', 'top_p'],
  supports_implicit_caching: true,
  pricing,
  latency_last_30m: percentiles,
  throughput_last_30m: percentiles,
  uptime_last_5m: 100,
  uptime_last_30m: 99.5,
  uptime_last_1d: 98.25,
};
const model = {
  id: 'author/model',
  name: 'Model',
  created: 1_700_000_000,
  description: 'A model.',
  architecture: {
    input_modalities: ['text', 'image'],
    output_modalities: ['text'],
    modality: 'text+image->text',
    instruct_type: 'chatml',
    tokenizer: 'GPT',
  },
  endpoints: [endpoint],
};

const intern = {
  id: '0b6f3c1e-5d2a-4c7e-9f10-2a3b4c5d6e7f',
  name: 'ada',
  description: 'Writes tests.',
  hostname: 'ada.interns.example.com',
  model: 'author/model',
  status: 'running',
  workspaceId: '1c7a4d2f-6e3b-4d8f-a021-3b4c5d6e7f80',
  vault_id: '2d8b5e3a-7f4c-4e9a-b132-4c5d6e7f8091',
  attached_vault_id: null,
  instructions: null,
  lastFailureMessage: null,
  progress: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-02T03:04:05.678Z',
};

test.describe('spec/openapi.yaml document', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument()));
    if (!result.valid) console.log(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('declares version 1.0.0, the /v1 server variable and global bearer security', () => {
    const doc = openApiDocument() as Record<string, any>;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0].url).toBe('{base_url}');
    expect(doc.servers[0].variables.base_url.default).toBe('http://127.0.0.1:8080/v1');
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  test('has the three GET operations with the documented responses', () => {
    const paths = (openApiDocument() as Record<string, any>).paths;
    const ops = {
      '/containers/{container_id}/files': ['listContainerFiles', ['200', '400', '401', '403', '429', '500', '503']],
      '/models/{author}/{slug}/endpoints': ['listModelEndpoints', ['200', '401', '403', '404', '500']],
      '/interns': ['listInterns', ['200', '400', '401', '403', '404', '408', '500', 'default']],
    } as const;
    expect(Object.keys(paths).sort()).toEqual(Object.keys(ops).sort());
    for (const [path, [operationId, statuses]] of Object.entries(ops)) {
      expect(Object.keys(paths[path])).toEqual(['get']);
      const op = paths[path].get;
      expect(op.operationId).toBe(operationId);
      expect(op.requestBody).toBeUndefined();
      expect(Object.keys(op.responses).sort()).toEqual([...statuses].sort());
      for (const status of statuses) {
        const ref: string = op.responses[status].content['application/json'].schema.$ref;
        expect(ref, `${path} ${status}`).toMatch(/^#\/components\/schemas\//);
      }
    }
  });

  test('parameters carry their documented bounds; interns names are marked not shown', () => {
    const params = (openApiDocument() as Record<string, any>).components.parameters;
    expect(params.FilesLimit).toMatchObject({
      name: 'limit',
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    });
    expect(params.FilesAfter).toMatchObject({ name: 'after', in: 'query', schema: { type: 'string' } });
    expect(params.InternsLimit).toMatchObject({
      name: 'limit',
      'x-not-shown': true,
      schema: { type: 'integer', minimum: 1, maximum: 500 },
    });
    expect(params.InternsLimit.schema.default).toBeUndefined(); // 8 rule 2: default not shown
    expect(params.InternsStatus).toMatchObject({ name: 'status', 'x-not-shown': true, schema: { type: 'string' } });
    expect(params.InternsWorkspaceId).toMatchObject({
      name: 'workspace_id',
      'x-not-shown': true,
      schema: { format: 'uuid' },
    });
    const statusPattern = new RegExp(params.InternsStatus.schema.pattern);
    expect(statusPattern.test('running')).toBe(true);
    expect(statusPattern.test('queued,failed,destroy_failed')).toBe(true);
    expect(statusPattern.test('running,bogus')).toBe(false);
    expect(statusPattern.test('')).toBe(false);
  });

  test('no schema forbids unknown fields', () => {
    // Walks keys (not text): descriptions may mention the keyword while explaining its absence.
    const found: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'additionalProperties' || key === 'unevaluatedProperties') found.push(`${at}/${key}`);
        walk(value, `${at}/${key}`);
      }
    };
    walk(openApiDocument(), '');
    expect(found).toEqual([]);
  });
});

test.describe('spec/schemas.ts', () => {
  test('every named component exists and compiles in strict mode', () => {
    const schemas = (openApiDocument() as Record<string, any>).components.schemas;
    for (const name of schemaNames) {
      expect(schemas[name], name).toBeDefined();
      expect(typeof validatorFor(name), name).toBe('function');
      expect(validatorFor(name)).toBe(validatorFor(name)); // cached, not recompiled
    }
    // Every component is a looked-up name (nothing defined but unreachable from the list).
    expect(Object.keys(schemas).sort()).toEqual([...schemaNames].sort());
  });

  test('the components also compile in a fresh strict Ajv with only the declared keywords', () => {
    // Guards against the shared instance having been loosened: an undeclared keyword must throw.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    ajv.addKeyword({ keyword: 'x-not-shown', schemaType: 'boolean' });
    ajv.addKeyword({ keyword: 'components', schemaType: 'object' });
    ajv.addSchema({
      $id: 'openapi.json',
      components: { schemas: (openApiDocument() as Record<string, any>).components.schemas },
    });
    for (const name of schemaNames) {
      expect(() => ajv.getSchema(`openapi.json#/components/schemas/${name}`), name).not.toThrow();
    }
    expect(() => ajv.compile({ type: 'string', example: 'x' })).toThrow(/unknown keyword/);
  });
});

test.describe('compileOwnSchema (suite-owned schemas on the same instance)', () => {
  test('is strict, cached, and tolerates re-registration of the same $id', () => {
    const schema = {
      $id: 'spec-openapi-test-own.json',
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string' } },
    };
    const v = compileOwnSchema<{ a: string }>(schema);
    expect(v({ a: 'x' })).toBe(true);
    expect(v({})).toBe(false);
    expect(compileOwnSchema(schema)).toBe(v);
    expect(compileOwnSchema({ ...schema })).toBe(v); // same $id, new object
    expect(() => compileOwnSchema({ type: 'string', minimun: 1 })).toThrow(/unknown keyword/);
  });
});

test.describe('ContainerFile / ContainerFileList (2.1, 2.2)', () => {
  test('accepts a conformant file, padded or unpadded ids, and extra fields', () => {
    expectValid('ContainerFile', file);
    expectValid('ContainerFile', withFields(file, { id: 'cfile_YQ==' }));
    expectValid('ContainerFile', withFields(file, { id: 'cfile_YQ' }));
    expectValid('ContainerFile', withFields(file, { id: 'cfile_YWI=' }));
    expectValid('ContainerFile', withFields(file, { id: 'cfile_a-b_' }));
    expectValid('ContainerFile', withFields(file, { unknown_field: { nested: true } }));
  });

  test('rejects wrong object/source constants, non-integer numbers, bad ids and missing fields', () => {
    expectViolation('ContainerFile', withFields(file, { object: 'file' }), '/object', 'const');
    expectViolation('ContainerFile', withFields(file, { source: 'user' }), '/source', 'const');
    expectViolation('ContainerFile', withFields(file, { created_at: 1.5 }), '/created_at', 'type');
    expectViolation('ContainerFile', withFields(file, { created_at: '1700000000' }), '/created_at', 'type');
    expectViolation('ContainerFile', withFields(file, { bytes: -1 }), '/bytes', 'minimum');
    expectViolation('ContainerFile', withFields(file, { id: 'cfile_a+b/' }), '/id', 'pattern');
    expectViolation('ContainerFile', withFields(file, { id: 'cfile_YQ/=' }), '/id', 'pattern');
    expectViolation('ContainerFile', withFields(file, { id: 'file_YQ' }), '/id', 'pattern');
    expectViolation('ContainerFile', withFields(file, { id: 'cfile_YQ=' }), '/id', 'pattern'); // half padding
    expectViolation('ContainerFile', withFields(file, { id: 'cfile_Y' }), '/id', 'pattern'); // impossible length
    const missing = expectViolation('ContainerFile', withFields(file, { path: undefined }), '', 'required');
    expect(missing.some((v) => v.message.includes("'path'"))).toBe(true);
    for (const field of Object.keys(file)) {
      expectViolation('ContainerFile', withFields(file, { [field]: undefined }), '', 'required');
    }
  });

  test('list: nullable cursors, empty pages, nested paths', () => {
    expectValid('ContainerFileList', fileList);
    expectValid('ContainerFileList', { object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    // 4.1 rule 3: at the scan bound last_id may name a scan position not in data.
    expectValid('ContainerFileList', {
      object: 'list',
      data: [],
      first_id: null,
      last_id: 'cfile_c2Nhbg',
      has_more: true,
      extra: 1,
    });
    expectViolation('ContainerFileList', withFields(fileList, { object: 'container.file' }), '/object', 'const');
    expectViolation('ContainerFileList', withFields(fileList, { has_more: 'false' }), '/has_more', 'type');
    expectViolation('ContainerFileList', withFields(fileList, { first_id: undefined }), '', 'required');
    expectViolation('ContainerFileList', withFields(fileList, { last_id: 7 }), '/last_id', 'type');
    expectViolation(
      'ContainerFileList',
      withFields(fileList, { data: [file, withFields(file, { id: 'cfile_+' })] }),
      '/data/1/id',
      'pattern',
    );
  });
});

test.describe('Model / Endpoint (2.3, 2.4, 4.2)', () => {
  test('accepts a full response, sparse endpoints and nulls where nullability is not shown', () => {
    expectValid('ModelEndpointsResponse', { data: model });
    expectValid('Endpoint', {});
    expectValid('Endpoint', withFields(endpoint, { quantization: null, status: null }));
    expectValid('ModelArchitecture', {
      input_modalities: [],
      output_modalities: [],
      modality: null,
      instruct_type: null,
      tokenizer: null,
    });
    expectValid('Endpoint', withFields(endpoint, { unknown: [1, 2], instruct_type: 42 }));
    expectValid('Pricing', { prompt: '-1', completion: '0.0000005', request: '00.10', image: '12' });
  });

  test('rejects documented-type violations', () => {
    expectViolation('ModelEndpointsResponse', {}, '', 'required');
    expectViolation('ModelEndpointsResponse', { data: [model] }, '/data', 'type');
    expectViolation('Model', withFields(model, { id: 'model-without-author' }), '/id', 'pattern');
    expectViolation('Model', withFields(model, { id: 'a/b/c' }), '/id', 'pattern');
    expectViolation('Model', withFields(model, { created: '2024' }), '/created', 'type');
    expectViolation(
      'ModelEndpointsResponse',
      { data: withFields(model, { endpoints: [withFields(endpoint, { context_length: 1.5 })] }) },
      '/data/endpoints/0/context_length',
      'type',
    );
    // 2.3 lists the model's fields and 4.2 answers "a model with endpoints": each is there.
    for (const field of ['id', 'name', 'created', 'description', 'architecture', 'endpoints'])
      expectViolation('Model', withFields(model, { [field]: undefined }), '', 'required');
    expectViolation('ModelArchitecture', { modality: 'text' }, '/modality', 'pattern');
    expectViolation('ModelArchitecture', { input_modalities: 'text' }, '/input_modalities', 'type');
    // 2.4 leaves their nullability open, not their presence (decision architecture-null-not-absent).
    const nulls = { input_modalities: [], output_modalities: [], modality: null, instruct_type: null, tokenizer: null };
    for (const field of ['modality', 'instruct_type', 'tokenizer'])
      expectViolation('ModelArchitecture', withFields(nulls, { [field]: undefined }), '', 'required');
    // 2.4 "Four fields" and "Numbers p50, p75, p90, p99": an object there carries all four.
    expectViolation('Pricing', { prompt: '1', completion: '2' }, '', 'required');
    expectViolation('Percentiles', { p50: 1, p75: 2, p90: 3 }, '', 'required');
    expectViolation('Endpoint', withFields(endpoint, { status: '0' }), '/status', 'type');
    expectViolation('Endpoint', withFields(endpoint, { name: null }), '/name', 'type');
    expectViolation(
      'Endpoint',
      withFields(endpoint, { supports_implicit_caching: 'yes' }),
      '/supports_implicit_caching',
      'type',
    );
    expectViolation('Endpoint', withFields(endpoint, { uptime_last_1d: 101 }), '/uptime_last_1d', 'maximum');
    expectViolation('Endpoint', withFields(endpoint, { pricing: { prompt: 0.5 } }), '/pricing/prompt', 'type');
    expectViolation(
      'Endpoint',
      withFields(endpoint, { latency_last_30m: { p50: '120' } }),
      '/latency_last_30m/p50',
      'type',
    );
    for (const bad of ['1e-6', '$0.5', '', ' 1', '.5', '5.', 'free', '+1', '0x10', 'NaN']) {
      expectViolation('Pricing', { prompt: '1', completion: '1', request: '1', image: bad }, '/image', 'pattern');
    }
  });
});

test.describe('Intern / InternList / InternStatus (2.5, 2.6, 3)', () => {
  test('accepts conformant interns with any non-null value where the type is not shown', () => {
    expectValid('Intern', intern);
    expectValid(
      'Intern',
      withFields(intern, {
        attached_vault_id: 'v',
        instructions: 'be nice',
        lastFailureMessage: 'oops',
        progress: { step: 3 },
      }),
    );
    expectValid('Intern', withFields(intern, { progress: 0.5, attached_vault_id: { id: 'x' } }));
    expectValid('Intern', withFields(intern, { extra: true }));
    expectValid('InternList', { data: [intern], has_more: true });
    expectValid('InternList', { data: [], has_more: false, next_cursor: 'opaque' });
    for (const state of INTERN_STATES) expectValid('InternStatus', state);
  });

  test("the suite's one list of section 3 states is the document's InternStatus enum, in its order", () => {
    const schema = openApiDocument().components.schemas.InternStatus as { enum?: unknown };
    expect(schema.enum).toEqual([...INTERN_STATES]);
  });

  test('rejects bad timestamps, uuids, statuses and missing fields', () => {
    expectViolation('Intern', withFields(intern, { createdAt: '2024-01-01T00:00:00Z' }), '/createdAt', 'pattern');
    expectViolation(
      'Intern',
      withFields(intern, { updatedAt: '2024-01-01T00:00:00.000+01:00' }),
      '/updatedAt',
      'pattern',
    );
    expectViolation('Intern', withFields(intern, { createdAt: '2024-13-01T00:00:00.000Z' }), '/createdAt', 'format');
    expectViolation('Intern', withFields(intern, { id: 'not-a-uuid' }), '/id', 'format');
    expectViolation('Intern', withFields(intern, { workspaceId: 12 }), '/workspaceId', 'type');
    expectViolation('Intern', withFields(intern, { status: 'deleted' }), '/status', 'enum');
    expectViolation('Intern', withFields(intern, { hostname: 'ada' }), '/hostname', 'pattern');
    expectViolation('Intern', withFields(intern, { model: 'model' }), '/model', 'pattern');
    // Nullable fields must be present (null, not absent): the 2.5 reading documented in the spec.
    expectViolation('Intern', withFields(intern, { progress: undefined }), '', 'required');
    expectViolation('InternList', { data: [intern] }, '', 'required');
    expectViolation(
      'InternList',
      { data: [withFields(intern, { status: 'RUNNING' })], has_more: false },
      '/data/0/status',
      'enum',
    );
    expectViolation('InternStatus', 'Running', '', 'enum');
  });
});

test.describe('Errors (7, 7.1, 7.2, 7.3)', () => {
  const body = (code: unknown, extra: Record<string, unknown> = {}) => ({ error: { code, message: 'm' }, ...extra });

  test('generic error shape', () => {
    expectValid('Error', body(400));
    expectValid('Error', body('anything'));
    expectValid('Error', { error: { code: 1, message: 'm', metadata: null }, service_metadata: null, user_id: null });
    expectValid('Error', {
      error: { code: 1, message: 'm', metadata: { k: 'v' }, extra: 1 },
      service_metadata: { a: 1 },
      user_id: 'u',
      extra: 2,
    });
    expectViolation('Error', {}, '', 'required');
    expectViolation('Error', { error: { code: 1 } }, '/error', 'required');
    expectViolation('Error', { error: { message: 'm' } }, '/error', 'required');
    expectViolation('Error', body(true), '/error/code', 'anyOf');
    expectViolation('Error', { error: { code: 1, message: 'm', metadata: 'x' } }, '/error/metadata', 'type');
    expectViolation('Error', body(1, { user_id: 5 }), '/user_id', 'type');
    expectViolation('Error', body(1, { service_metadata: [] }), '/service_metadata', 'type');
  });

  test('container files and model endpoints errors carry integer codes', () => {
    expectValid('ContainerFilesError', body(400, { service_metadata: { trace: 't' }, user_id: 'user_1' }));
    expectValid('ContainerFilesError', body(503));
    expectViolation('ContainerFilesError', body('400'), '/error/code', 'type');
    expectViolation('ContainerFilesError', { error: { code: 400 } }, '/error', 'required');
    expectValid('ModelEndpointsError', body(404));
    expectViolation('ModelEndpointsError', body('not_found'), '/error/code', 'type');
  });

  test('interns errors: integer codes or the three documented strings', () => {
    for (const code of ['invalid_body', 'not_found', 'internal_error', 401, 403, 408]) {
      expectValid('InternsError', body(code));
    }
    expectViolation('InternsError', body('bogus'), '/error/code', 'anyOf');
    expectViolation('InternsError', body('401'), '/error/code', 'anyOf');
    expectViolation('InternsError', body(null), '/error/code');
    expectViolation('InternsError', { error: { code: 'not_found' } }, '/error', 'required');
  });
});
