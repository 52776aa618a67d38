import { expect, test } from '@playwright/test';
import { stackLines } from './support/hostile-server.ts';
import { runSuiteAgainst } from './support/run-against.ts';

// "Judge every response": the checks and judges read what the target sent; the mask rewrites only what
// is written for a person. A management key that is also a word of every body (`data`, the name of
// the list member of 4.1 and 4.3) must change no verdict and no requirement's status: the reference
// takes the key it is given, the command reads it from the target file's ${VAR} as a user's run does.

const RANDOM_KEY = `ref_mgmt_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

test('a management key equal to `data`: the same verdict and statuses as a random key, through the command', async () => {
  test.setTimeout(300_000);
  const restricted = 'ref_user_7d1c4b9e2a';
  const [word, random] = await Promise.all([
    runSuiteAgainst({ keys: { management: 'data', restricted } }, [], 240_000),
    runSuiteAgainst({ keys: { management: RANDOM_KEY, restricted } }, [], 240_000),
  ]);
  for (const run of [word, random]) expect(stackLines(run)).toEqual([]);
  expect(random.report?.verdict, random.stdout + random.stderr).toBe('conformant');
  expect(word.code, word.stdout + word.stderr).toBe(random.code);
  expect(word.report?.verdict).toBe(random.report?.verdict);
  // By position: the requirement ids are the suite's own words (the report's mask must leave them, a
  // rule of core/text/mask.ts); here the statuses are what is compared.
  const statuses = (run: typeof word) => run.report!.requirements.map((r) => r.status);
  expect(statuses(word)).toEqual(statuses(random));
  expect(word.report!.checks.map((c) => c.status)).toEqual(random.report!.checks.map((c) => c.status));
});
