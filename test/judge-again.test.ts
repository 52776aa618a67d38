import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runConformance } from '../cli/api.ts';
import { judgeRecording, loadRecording } from '../cli/offline-judge.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { NOT_SELECTED } from '../reports/build-report.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { JUDGE_SEEDS, judgeAgain, judgeCases, type JudgeCase } from './support/judge-again.ts';

// `conformance judge evidence.har` gives the live run's verdict and every requirement's status, offline,
// on the targets of the catalogue (rule "Verdicts in both directions": a recording judged again is the
// run's judgement, not another). The whole matrix, every fault and variant on seeds 1, 7 and 1234, is
// `npm run prove:judge` (scripts/prove-judge.ts); here, within npm test's time, the targets where a
// replay could part from its run: statuses answered by the count of requests (a request asked again
// must meet the answer it met live), a listing long enough to reach the run's limits, a key that sees
// no intern, a cursor that cycles, a SHOULD-only fault judged under --fail-on should. Each is judged on
// one seed of the three, by its place in this list, so every seed is taken.
test.describe.configure({ mode: 'parallel' });

const SAMPLE = [
  'reference',
  'variant transient-statuses',
  'fault interns-408-code-500',
  'fault files-503-code-500',
  'variant large-listing',
  'variant key-without-interns',
  'fault pagination-cursor-cycle',
  'fault auth-basic-scheme-accepted',
];

const cases = new Map(judgeCases().map((c) => [c.name, c]));

test('the sample names targets of the catalogue, and the matrix is every fault and every variant', () => {
  expect(SAMPLE.filter((name) => !cases.has(name))).toEqual([]);
  expect(cases.size).toBe(1 + FAULTS.length + CONFORMANT_VARIANTS.length);
  expect(cases.get('fault auth-basic-scheme-accepted')?.failOn).toBe('should');
});

for (const [i, name] of SAMPLE.entries()) {
  const seed = JUDGE_SEEDS[i % JUDGE_SEEDS.length]!;
  test(`${name}, --seed ${seed}: judged again from its recording, the live run's verdict and statuses`, async () => {
    const judged = await judgeAgain(cases.get(name) as JudgeCase, seed);
    expect(judged.runError, 'the live run was made').toBeUndefined();
    expect(judged.live?.requirements.length).toBeGreaterThan(0);
    expect(judged.differences, `${name} --seed ${seed}`).toEqual([]);
  });
}

test('a run of all checks but one is judged again by its checks, however many: its selection is not rebuilt as a --grep', async () => {
  // The selection's ids joined as a --grep would be over the 1000 characters one --grep may hold.
  const left = ALL_CHECKS[0]!.id;
  expect(ALL_CHECKS.map((c) => c.id).join('|').length).toBeGreaterThan(1000);
  const dir = mkdtempSync(join(tmpdir(), 'judge-selection-'));
  const server = await startReference();
  try {
    const file = join(dir, 'target.yaml');
    writeFileSync(file, referenceTargetYaml(server));
    const reportDir = join(dir, 'report');
    const grep = `^(?!${left.replaceAll('.', '\\.')} )`;
    const live = await runConformance({ target: file, env: referenceKeyEnv(server), seed: 7, grep, reportDir });
    const rec = loadRecording(join(reportDir, 'evidence.har'));
    expect(rec.log._conformance.selected?.length).toBe(ALL_CHECKS.length - 1);
    const offline = await judgeRecording(rec);
    const statuses = (r: ConformanceReport) => r.checks.map((c) => [c.checkId, c.status, c.reason ?? '']);
    expect(offline.verdict).toBe(live.verdict);
    expect(statuses(offline)).toEqual(statuses(live));
    expect(offline.checks.find((c) => c.checkId === left)?.reason).toBe(NOT_SELECTED);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
