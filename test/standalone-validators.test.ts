import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { startReference } from '../reference/server.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { OWN_SCHEMA_FILES, schemaNames, standaloneValidators, validatorFor, type SchemaName } from '../spec/schemas.ts';
import { ROOT } from './support/harness.ts';

// The compiled package validates with the standalone code the build writes (spec/schemas.ts,
// scripts/build-dist.ts); a clone compiles the same schemas on first use. Both must give every
// body the same answer, violations included, or the package would judge differently from the tests.

const require = createRequire(import.meta.url);
const OWN_SCHEMAS = OWN_SCHEMA_FILES.map((f) => JSON.parse(readFileSync(join(ROOT, f), 'utf8')) as { $id: string });

let standalone: Record<string, ValidateFunction>;
let dir: string;

test.beforeAll(() => {
  // Written inside the repository so that the module's require() calls resolve its node_modules.
  // test-results/ is Playwright's, and another Playwright run may have just cleared it.
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test-results', 'standalone-'));
  const file = join(dir, 'validators.cjs');
  writeFileSync(file, standaloneValidators(OWN_SCHEMAS));
  standalone = require(file) as Record<string, ValidateFunction>;
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Where the two validators of `name` disagree on `value` (what each says: its answer and its violations), or undefined. */
function disagreement(name: SchemaName, value: unknown): string | undefined {
  const run = (v: ValidateFunction) => [v(value), v.errors ?? null];
  const compiled = run(validatorFor(name));
  const built = run(standalone[name]!);
  if (isDeepStrictEqual(compiled, built)) return undefined;
  return `${name} on ${JSON.stringify(value).slice(0, 200)}: compiled ${JSON.stringify(compiled).slice(0, 300)}, standalone ${JSON.stringify(built).slice(0, 300)}`;
}

/** Bodies the reference sends (conformant, and with each fault that changes a body), and parts of them. */
async function referenceBodies(): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const faults of [[], ...FAULTS.map((f) => [f.name])]) {
    const ref = await startReference({ faults });
    try {
      const auth = { authorization: `Bearer ${ref.keys.management}` };
      for (const url of [
        `/v1/containers/${ref.fixtures.containerId}/files?limit=20`,
        `/v1/containers/${ref.fixtures.containerId}/files?limit=0`,
        `/v1/models/${ref.fixtures.model}/endpoints`,
        `/v1/models/${ref.fixtures.missingModel}/endpoints`,
        `/v1/interns?limit=20`,
        `/v1/interns?limit=x`,
      ]) {
        const body = ref.serve('main', { method: 'GET', url, headers: auth }).body.toString('utf8');
        try {
          bodies.push(JSON.parse(body));
        } catch {
          // A fault that breaks the JSON itself gives no value to validate.
        }
      }
    } finally {
      await ref.close();
    }
  }
  const parts: unknown[] = [];
  for (const body of bodies) {
    const b = body as Record<string, unknown>;
    if (b && typeof b === 'object')
      for (const v of Object.values(b)) parts.push(v, ...(Array.isArray(v) ? v.slice(0, 3) : []));
  }
  return [...bodies, ...parts];
}

test('the standalone validators give every body the answers and violations of the compiled ones', async () => {
  const values = await referenceBodies();
  expect(values.length).toBeGreaterThan(100);
  // Compared by hand, one expect at the end: Playwright records every expect call as a step.
  const disagreements: string[] = [];
  for (const name of schemaNames) {
    for (const value of values) {
      const d = disagreement(name, value);
      if (d) disagreements.push(d);
    }
  }
  expect(disagreements.slice(0, 5)).toEqual([]);
});

test('the standalone validators agree with the compiled ones on any JSON value, and on bodies with a field changed', async () => {
  const values = await referenceBodies();
  const objects = values.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v));
  const changed = fc.tuple(fc.constantFrom(...objects), fc.jsonValue({ maxDepth: 2 })).map(([o, v]) => {
    const keys = Object.keys(o);
    const copy = structuredClone(o);
    if (keys.length > 0) copy[keys[Math.abs(JSON.stringify(v).length) % keys.length]!] = v;
    return copy as unknown;
  });
  fc.assert(
    fc.property(
      fc.constantFrom(...schemaNames),
      fc.oneof(fc.jsonValue({ maxDepth: 4 }), changed),
      (name, value) => disagreement(name, value) === undefined,
    ),
    { numRuns: 2000, seed: 31 },
  );
});

test("the suite's own schemas are in the standalone module under their $id", () => {
  for (const schema of OWN_SCHEMAS) expect(typeof standalone[schema.$id], schema.$id).toBe('function');
  const target = standalone['conformance-target.json']!;
  expect(target({ baseUrl: 'http://127.0.0.1:1/v1' })).toBe(false);
  expect(target.errors?.length).toBeGreaterThan(0);
});
