import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { catalogue, requirement } from '../core/document/catalogue.ts';
import { DEFAULTS } from '../core/run/run-settings.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { REPORT_FILES } from '../reports/write-report.ts';
import { faultProblem, judgeFault, variantProblems } from './support/exactness.ts';
import { runEngineAgainst } from './support/harness.ts';
import { decisionProblems } from './support/ledger.ts';
import { runSuiteAgainst } from './support/run-against.ts';
import { ONE_VERDICT_IN_WALKS, SEEDS, seedSettings, statusesOf } from './support/seeds.ts';

// The suite proves itself: the whole suite, run by its engine in-process (as a run runs it, without
// the process start-ups around it), must catch every fault of the catalogue exactly (every
// requirement it names fails, no other one unless declared with its reason) and must find every
// conformant variant conformant with every MUST judged, on every seed. Each result is
// attached as `mutation-result`; test/summary-reporter.ts prints the score table. A few runs go
// through the real command line too (the end-to-end path).
test.describe.configure({ mode: 'parallel' });

/** The seed every fault is judged on: exactness (below) is a statement about one reproducible run. */
const FAULT_SEED = 1234;

/**
 * Every other fault runs one request at a time: each is caught exactly at the concurrency it runs at,
 * and both concurrencies are proven over the catalogue. That a target's statuses are the same at both
 * is held below, on every variant and on a sample of faults, seed by seed.
 */
const faultConcurrency = (index: number): number => (index % 2 === 0 ? DEFAULTS.concurrency : 1);

for (const [index, fault] of FAULTS.entries()) {
  const concurrency = faultConcurrency(index);
  test(`fault ${fault.name} is caught exactly (${fault.breaks.join(', ')}) at concurrency ${concurrency}`, async ({}, testInfo) => {
    const mustLevel = fault.breaks.some((id) => requirement(id).level === 'MUST');
    // A fault that breaks only SHOULD requirements is caught when it fails the run under --fail-on should.
    const report = await runEngineAgainst(
      { faults: [fault.name] },
      { settings: { seed: FAULT_SEED, failOn: mustLevel ? 'must' : 'should', concurrency } },
    );
    // Caught: every requirement of `breaks` failed and no other save those of `alsoFails` (test/support/exactness.ts).
    const j = judgeFault(fault, report);
    await testInfo.attach('mutation-result', {
      body: JSON.stringify({
        kind: 'fault',
        name: fault.name,
        operation: fault.operation,
        caught: j.caught,
        level: mustLevel ? 'MUST' : 'SHOULD',
        shown: j.shown,
        missing: j.missing.map((r) => r.id),
        extra: j.extra.map((r) => r.id),
      }),
      contentType: 'application/json',
    });
    expect(
      report.checks.filter((c) => c.reason?.startsWith('suite error')).map((c) => `${c.checkId}: ${c.reason}`),
      'no suite error',
    ).toEqual([]);
    expect(j.caught, faultProblem(fault, j, FAULT_SEED)).toBe(true);
    // What the report says of the target speaks of JSON: a field it left out is `absent`, never `undefined`.
    for (const [name, render] of Object.entries(REPORT_FILES)) {
      const text = render(report);
      const at = text.search(/undefined/i);
      expect(at, `${name}: ${text.slice(Math.max(0, at - 200), at + 80)}`).toBe(-1);
    }
  });
}

test('every MUST requirement is named by a fault: its failing is shown, not assumed', () => {
  // With the exactness of each fault (above: every requirement of `breaks` fails on the fault's run),
  // a MUST named here is one the suite is shown to fail; one named by no fault is a rule nothing proves.
  const named = new Set(FAULTS.flatMap((f) => f.breaks));
  const unproven = catalogue()
    .requirements.filter((r) => r.level === 'MUST' && !named.has(r.id))
    .map((r) => `${r.id} (${r.section}): ${r.statement}`);
  expect(
    unproven,
    'MUST requirements no fault names in breaks: add a fault that breaks each (reference/faults/)',
  ).toEqual([]);
});

test('each declaration of a fault or a variant names a known requirement, with its reason', () => {
  for (const f of FAULTS) {
    for (const a of f.alsoFails ?? []) {
      expect(() => requirement(a.id), `${f.name} alsoFails unknown ${a.id}`).not.toThrow();
      expect(f.breaks, `${f.name} names ${a.id} both in breaks and in alsoFails`).not.toContain(a.id);
      expect(a.why.trim().length, `${f.name} alsoFails ${a.id} without a reason`).toBeGreaterThan(0);
    }
  }
  for (const v of CONFORMANT_VARIANTS) {
    for (const u of v.unjudged ?? []) {
      expect(requirement(u.id).level, `${v.name} declares ${u.id} unjudged: only a MUST needs the declaration`).toBe(
        'MUST',
      );
      expect(u.why.trim().length, `${v.name} unjudged ${u.id} without a reason`).toBeGreaterThan(0);
    }
  }
});

for (const variant of CONFORMANT_VARIANTS) {
  test(`conformant variant ${variant.name} is judged conformant, every MUST judged, on seeds ${SEEDS.join(', ')} (even ones at concurrency 1)`, async ({}, testInfo) => {
    const bySeed: Record<number, string[]> = {};
    const ledgerBySeed: Record<number, string[]> = {};
    const statuses = new Set<string>();
    for (const seed of SEEDS) {
      const report = await runEngineAgainst(variant.options, { settings: seedSettings(seed) });
      // Conformant only with every MUST it can be asked judged: a MUST skipped, not reached or in
      // error fails the test unless the variant declares it `unjudged`, with its reason.
      bySeed[seed] = variantProblems(variant, report);
      // A decision of the ledger that allows the variant: none of its requirements failed, a SHOULD neither (test/ledger.test.ts).
      ledgerBySeed[seed] = decisionProblems(variant.name, report);
      statuses.add(statusesOf(report));
    }
    await testInfo.attach('mutation-result', {
      body: JSON.stringify({
        kind: 'variant',
        name: variant.name,
        operation: 'general',
        caught: Object.values(bySeed).some((l) => l.length > 0),
        seeds: Object.fromEntries(Object.entries(bySeed).map(([s, l]) => [s, l.length === 0])),
      }),
      contentType: 'application/json',
    });
    expect(bySeed, `MUST requirements failed or not judged on ${variant.name} (${variant.description})`).toEqual(
      Object.fromEntries(SEEDS.map((s) => [s, []])),
    );
    expect(ledgerBySeed, `a decision that allows ${variant.name} is contradicted`).toEqual(
      Object.fromEntries(SEEDS.map((s) => [s, []])),
    );
    // One verdict per target (rule "Verdicts in both directions"): every MUST and SHOULD has the same status on every seed, at either concurrency.
    expect(statuses.size, `statuses differ across seeds or concurrencies on ${variant.name}`).toBe(1);
  });
}

// Each conformant variant is held to the same on its 5 seeds (above); here a sample of faults, one test
// each (so that they spread over the workers). The plain reference's is test/concurrency.test.ts's, and
// that of a fault whose runs on these seeds test/walks.test.ts makes is held there: beside the tests
// that make the same runs, each run is made once (test/support/shared-run.ts).
const VERDICT_SAMPLE = FAULTS.filter((_, i) => i % 9 === 0).map((f) => f.name);
for (const fault of VERDICT_SAMPLE.filter((f) => !ONE_VERDICT_IN_WALKS.includes(f))) {
  test(`one verdict per target: every requirement has the same status on seeds ${SEEDS.join(', ')} (even ones at concurrency 1), on fault ${fault}`, async () => {
    const statuses = new Set<string>();
    for (const seed of SEEDS)
      statuses.add(statusesOf(await runEngineAgainst({ faults: [fault] }, { settings: seedSettings(seed) })));
    expect(statuses.size, `statuses differ across seeds or concurrencies on ${fault}`).toBe(1);
  });
}

test('the faults whose verdict across seeds another file holds are of the sample', () => {
  expect(ONE_VERDICT_IN_WALKS.filter((f) => !VERDICT_SAMPLE.includes(f))).toEqual([]);
});

test('the real command line judges a fault and a variant as the engine does (end to end)', async () => {
  const fault = FAULTS.find((f) => f.breaks.some((id) => requirement(id).level === 'MUST'))!;
  const faulty = await runSuiteAgainst({ faults: [fault.name] });
  expect(faulty.code, faulty.stdout + faulty.stderr).toBe(1);
  expect(faulty.report?.requirements.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(
    expect.arrayContaining([fault.breaks[0]]),
  );
  const variant = CONFORMANT_VARIANTS[0]!;
  const plain = await runSuiteAgainst(variant.options);
  expect(plain.code, plain.stdout + plain.stderr).toBe(0);
  expect(plain.report?.verdict).toBe('conformant');
});

test('the fault catalogue is the pinned list: each fault named, each breaking known requirements', () => {
  // A fault dropped from the catalogue is a proof lost: the list is pinned by name, not counted.
  const pinned = JSON.parse(readFileSync(new URL('./fixtures/fault-names.json', import.meta.url), 'utf8')) as string[];
  expect(FAULTS.map((f) => f.name).sort()).toEqual([...pinned].sort());
  for (const f of FAULTS)
    for (const id of f.breaks) expect(() => requirement(id), `${f.name} breaks unknown ${id}`).not.toThrow();
  const variants = CONFORMANT_VARIANTS.map((v) => v.name);
  expect(new Set(variants).size).toBe(variants.length);
});
