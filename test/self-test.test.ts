import { expect, test } from '@playwright/test';
import { requirement } from '../core/catalogue.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { runSuiteAgainst } from './support/run-against.ts';

// The suite proves itself: the whole suite, run as a user runs it, must catch every fault of the
// catalogue (each breaks one requirement) and must find every conformant variant conformant.
// Each result is attached as `mutation-result`; test/summary-reporter.ts prints the score table.
test.describe.configure({ mode: 'parallel' });

for (const fault of FAULTS) {
  test(`fault ${fault.name} is caught (${fault.breaks.join(', ')})`, async ({}, testInfo) => {
    const mustLevel = fault.breaks.some((id) => requirement(id).level === 'MUST');
    // A fault that breaks only SHOULD requirements is caught when it fails the run under --fail-on should.
    const run = await runSuiteAgainst({ faults: [fault.name] }, mustLevel ? [] : ['--fail-on', 'should']);
    const failed = (run.report?.requirements ?? []).filter((r) => r.status === 'fail').map((r) => r.id);
    const caught = run.code === 1 && fault.breaks.some((id) => failed.includes(id));
    await testInfo.attach('mutation-result', {
      body: JSON.stringify({ kind: 'fault', name: fault.name, operation: fault.operation, caught }),
      contentType: 'application/json',
    });
    expect(run.stderr, 'no internal error').not.toContain('internal error');
    expect(run.report?.verdict, `stdout:\n${run.stdout}`).toBe('non-conformant');
    expect(failed, 'the requirement the fault breaks is among the failures').toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^(${fault.breaks.map((b) => b.replace(/\./g, '\\.')).join('|')})$`))]));
    expect(run.code).toBe(1);
  });
}

for (const variant of CONFORMANT_VARIANTS) {
  test(`conformant variant ${variant.name} is judged conformant`, async ({}, testInfo) => {
    const run = await runSuiteAgainst(variant.options);
    const mustFailures = (run.report?.requirements ?? []).filter((r) => r.status === 'fail' && r.level === 'MUST').map((r) => `${r.id}: ${r.reason}`);
    await testInfo.attach('mutation-result', {
      body: JSON.stringify({ kind: 'variant', name: variant.name, operation: 'general', caught: mustFailures.length > 0 }),
      contentType: 'application/json',
    });
    expect(mustFailures, `false MUST failures on ${variant.description}`).toEqual([]);
    expect(run.report?.verdict, run.stdout).toBe('conformant');
    expect(run.code).toBe(0);
  });
}

test('the fault catalogue covers every operation with at least 35 faults, each naming known requirements', () => {
  expect(FAULTS.length).toBeGreaterThanOrEqual(35);
  const names = FAULTS.map((f) => f.name);
  expect(new Set(names).size).toBe(names.length);
  for (const f of FAULTS) for (const id of f.breaks) expect(() => requirement(id), `${f.name} breaks unknown ${id}`).not.toThrow();
  for (const op of ['listContainerFiles', 'listModelEndpoints', 'listInterns'] as const) {
    expect(FAULTS.filter((f) => f.operation === op).length, op).toBeGreaterThanOrEqual(5);
  }
  expect(CONFORMANT_VARIANTS.length).toBeGreaterThanOrEqual(3);
});
