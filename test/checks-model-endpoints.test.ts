/** Own tests of the model-endpoints checks (suites/checks/model-endpoints.ts) against the reference and its faults. */
import { expect, test } from '@playwright/test';
import type { CheckOutcome } from '../core/check/check.ts';
import type { ReferenceOptions } from '../reference/options.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { MODEL_ENDPOINTS_FAULTS } from '../reference/faults/model-endpoints.ts';
import { modelEndpointsChecks } from '../suites/checks/model-endpoints.ts';
import { probeCheck } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

const CHECK_IDS = modelEndpointsChecks.map((c) => c.id);

/** Each MUST/SHOULD check, the fault that breaks its requirement, and the requirement it must name. */
const FAULT_CASES: ReadonlyArray<{ check: string; fault: string; requirement: string }> = [
  { check: 'models.response.schema', fault: 'models-no-data-wrapper', requirement: 'models.response.data-wrapper' },
  {
    check: 'models.response.schema',
    fault: 'models-architecture-modalities-string',
    requirement: 'models.model.schema',
  },
  {
    check: 'models.response.schema',
    fault: 'models-endpoint-context-length-string',
    requirement: 'models.endpoint.schema',
  },
  { check: 'models.model.id-shape', fault: 'models-id-without-author', requirement: 'models.model.id-shape' },
  {
    check: 'models.model.id-matches-path',
    fault: 'models-other-model-returned',
    requirement: 'models.model.id-matches-path',
  },
  {
    check: 'models.model.created-seconds',
    fault: 'models-created-millis',
    requirement: 'models.model.created-seconds',
  },
  {
    check: 'models.architecture.modality-shape',
    fault: 'models-modality-arrow-missing',
    requirement: 'models.architecture.modality-shape',
  },
  {
    check: 'models.endpoint.pricing',
    fault: 'models-pricing-numbers',
    requirement: 'models.endpoint.pricing-decimal-strings',
  },
  // A fault of reference/faults/readings.ts: "$0.0000025" is no decimal number under any reading.
  {
    check: 'models.endpoint.pricing',
    fault: 'models-pricing-not-numeric',
    requirement: 'models.endpoint.pricing-decimal-strings',
  },
  {
    check: 'models.endpoint.percentiles',
    fault: 'models-percentile-strings',
    requirement: 'models.endpoint.percentiles',
  },
  { check: 'models.endpoint.uptime', fault: 'models-uptime-strings', requirement: 'models.endpoint.uptime-numbers' },
  { check: 'models.unknown-model-error', fault: 'models-unknown-200', requirement: 'models.unknown-model-error' },
  {
    check: 'models.forbidden-model-error',
    fault: 'models-forbidden-error-no-code',
    requirement: 'models.forbidden-model-error',
  },
  {
    check: 'models.forbidden-model-error',
    fault: 'models-forbidden-error-no-code',
    requirement: 'models.errors.shape',
  },
  { check: 'models.response.schema', fault: 'models-no-endpoints', requirement: 'models.model.fields-present' },
  { check: 'models.response.schema', fault: 'models-wrapper-extra-field', requirement: 'models.response.one-field' },
  // spec/readings.yaml decisions: every 2.3 field is present (model-fields-present); a stated count binds (stated-counts).
  { check: 'models.response.schema', fault: 'models-no-description', requirement: 'models.model.fields-present' },
  // Decision architecture-null-not-absent: 2.4 leaves instruct_type's nullability open, not its presence.
  {
    check: 'models.response.schema',
    fault: 'models-architecture-no-instruct-type',
    requirement: 'models.model.fields-present',
  },
  {
    check: 'models.endpoint.pricing',
    fault: 'models-pricing-fifth-field',
    requirement: 'models.endpoint.pricing-decimal-strings',
  },
  { check: 'models.unknown-model', fault: 'models-unknown-200', requirement: 'models.unknown-model-404' },
];

/** Conformant variants of the reference: none of these checks may fail or error on them. */
const CONFORMANT: ReadonlyArray<{ name: string; options: Partial<ReferenceOptions> }> = [
  { name: 'plain', options: {} },
  { name: 'sparseEndpoints', options: { sparseEndpoints: true } },
  { name: 'extraFields', options: { extraFields: true } },
  {
    name: 'stringErrorStatus',
    options: { stringErrorStatus: { invalid_body: 422, not_found: 410, internal_error: 503 } },
  },
  { name: 'restricted key accepted', options: { restrictedKeyAcceptedBy: ['listInterns'] } },
  { name: 'charset content type', options: { contentType: 'application/json; charset=utf-8' } },
];

/** Readings of spec/readings.yaml (conformant variants) and the SHOULD requirement that reports each: no other failure. */
const READINGS: ReadonlyArray<{
  reading: 'pricing-exponent' | 'unknown-model-403' | 'models-error-string-codes';
  should: string;
}> = [
  { reading: 'pricing-exponent', should: 'models.endpoint.pricing-fixed-point' },
  { reading: 'unknown-model-403', should: 'models.unknown-model-404' },
  // Section 7 "integer, or string on some operations": a string code is reported by the SHOULD only (decision model-error-codes).
  { reading: 'models-error-string-codes', should: 'models.errors.code-integer' },
];

const show = (o: CheckOutcome) => `${o.checkId}: ${o.status} ${o.reason ?? ''}`;

for (const { name, options } of CONFORMANT) {
  test(`conformant variant ${name}: every model-endpoints check passes`, async () => {
    const outcomes = await Promise.all(CHECK_IDS.map((id) => probeCheck(id, options)));
    expect(outcomes.filter((o) => o.status !== 'pass').map(show)).toEqual([]);
  });
}

for (const { reading, should } of READINGS) {
  test(`reading ${reading}: no model-endpoints check fails but on the SHOULD ${should}`, async () => {
    const outcomes = await Promise.all(CHECK_IDS.map((id) => probeCheck(id, { readings: [reading] })));
    expect(outcomes.filter((o) => o.status === 'error').map(show)).toEqual([]);
    const failed = outcomes.flatMap((o) => o.failures.map((f) => f.requirementId));
    expect(failed.length, 'the SHOULD reports the reading').toBeGreaterThan(0);
    expect([...new Set(failed)]).toEqual([should]);
  });
}

for (const { check, fault, requirement } of FAULT_CASES) {
  test(`${check} fails on ${fault} with ${requirement}`, async () => {
    const outcome = await probeCheck(check, { faults: [fault] });
    expect(outcome.status, outcome.reason).toBe('fail');
    // The probe's own failure, or a whole-run judge's on the response it received (models.errors.shape).
    expect(outcome.failures.map((f) => f.requirementId)).toContain(requirement);
    expect(outcome.failures[0]?.exchanges.length).toBeGreaterThan(0);
  });
}

test('every model-endpoints fault is proven by a case above', () => {
  expect(MODEL_ENDPOINTS_FAULTS.map((f) => f.name).filter((n) => !FAULT_CASES.some((c) => c.fault === n))).toEqual([]);
  // A fault breaks one requirement, or the MUST every reading agrees on and the SHOULD of one reading: each proven.
  for (const c of FAULT_CASES) {
    const breaks = FAULTS.find((f) => f.name === c.fault)?.breaks ?? [];
    expect(breaks, c.fault).toContain(c.requirement);
    for (const r of breaks)
      expect(
        FAULT_CASES.some((x) => x.fault === c.fault && x.requirement === r),
        `${c.fault} breaks ${r}`,
      ).toBe(true);
  }
});

// A fault breaks exactly one requirement: no other model-endpoints check may fail on another requirement.
for (const fault of MODEL_ENDPOINTS_FAULTS) {
  test(`${fault.name} fails no requirement but ${fault.breaks.join(', ')}`, async () => {
    const outcomes = await Promise.all(CHECK_IDS.map((id) => probeCheck(id, { faults: [fault.name] })));
    const wrong = outcomes.flatMap((o) =>
      o.failures
        .filter((f) => !fault.breaks.includes(f.requirementId))
        .map((f) => `${o.checkId}: ${f.requirementId} ${f.message}`),
    );
    expect(wrong).toEqual([]);
    expect(outcomes.filter((o) => o.status === 'error').map(show)).toEqual([]);
  });
}

test('unknown-model is skipped without modelEndpoints.missingModel', async () => {
  const outcome = await probeCheck(
    'models.unknown-model',
    {},
    { editTarget: (y) => y.replace(/^ {2}missingModel: .*\n/m, '') },
  );
  expect(outcome.status).toBe('skip');
  expect(outcome.reason).toContain('missingModel');
});

test('a model with a millisecond created is named in the message', async () => {
  const outcome = await probeCheck('models.model.created-seconds', { faults: ['models-created-millis'] });
  expect(outcome.reason).toContain('milliseconds');
});

test('nullability observation: types and values of the five fields, null included', async () => {
  const plain = await probeCheck('models.endpoint.nullability');
  expect(plain.status).toBe('pass');
  const seen = plain.observations[0]?.value as Record<string, any>;
  expect(seen.endpoints).toBe(4);
  expect(seen.quantization.onEndpoints.types).toEqual({ string: 4 });
  expect(seen.quantization.onEndpoints.values).toEqual(['unknown', 'fp8', 'bf16']);
  expect(seen.status.onEndpoints.types).toEqual({ integer: 4 });
  expect(seen.modality.onArchitecture).toEqual({ type: 'string', value: 'text+image->text' });
  expect(seen.instruct_type.onEndpoints.types).toEqual({ absent: 4 });

  const sparse = await probeCheck('models.endpoint.nullability', { sparseEndpoints: true });
  const s = sparse.observations[0]?.value as Record<string, any>;
  expect(s.status.onEndpoints.types).toEqual({ null: 1, integer: 3 });
  expect(s.quantization.onEndpoints.types).toEqual({ null: 2, string: 2 });
  expect(s.tokenizer.onArchitecture).toEqual({ type: 'null', value: null });
});

test('required-fields observation: presence of each 2.4 field over the endpoints', async () => {
  const plain = (await probeCheck('models.endpoint.required-fields')).observations[0]?.value as Record<string, any>;
  expect(plain.endpoints).toBe(4);
  expect(plain.sometimesAbsent).toEqual([]);
  expect(plain.inEvery).toHaveLength(18);
  const sparse = (await probeCheck('models.endpoint.required-fields', { sparseEndpoints: true })).observations[0]
    ?.value as Record<string, any>;
  expect(sparse.present.max_prompt_tokens).toBe(2);
  expect(sparse.present.uptime_last_1d).toBe(2);
  expect(sparse.present.tag).toBe(3);
  expect(sparse.present.status).toBe(4); // null is present
  const extra = (await probeCheck('models.endpoint.required-fields', { extraFields: true })).observations[0]
    ?.value as Record<string, any>;
  expect(extra.fieldsBeyond24).toEqual(['x_reference']);
});

// A created past any date (2^64 + 1) is judged as not seconds, not a suite error ("Invalid time value").
test('a created of 2^64 + 1 is judged (not seconds), never a suite error', async () => {
  const { startHostile } = await import('./support/hostile-server.ts');
  let reference = '';
  const proxy = await startHostile(() => ({
    kind: 'proxy',
    to: reference,
    edit: (json) => {
      const data = (json as { data?: Record<string, unknown> }).data;
      if (data && typeof data === 'object') data['created'] = 2 ** 64 + 1;
      return json;
    },
  }));
  try {
    const outcome = await probeCheck(
      'models.model.created-seconds',
      {},
      {
        editTarget: (yaml) => {
          reference = /^baseUrl: (\S+)$/m.exec(yaml)![1]!;
          return yaml.replace(/^baseUrl: \S+$/m, `baseUrl: ${proxy.baseUrl}`);
        },
        overHttp: true,
      },
    );
    expect(outcome.status, outcome.reason).toBe('fail');
    expect(outcome.reason).toMatch(
      /created 18446744073709552000 is above 10\^11: milliseconds, not seconds \(not a date even read as ms\)/,
    );
  } finally {
    await proxy.close();
  }
});
