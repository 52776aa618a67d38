import { expect, test } from '@playwright/test';
import { wholeRunReplay } from '../cli/merge-replay.ts';

test("a merged report's replay is the whole run's command: no --shard, the merged directory's replay", () => {
  const shard = 'npm run conformance -- --target t.json --seed 7 --report-dir sh1-replay --grep files --shard 1/3';
  expect(wholeRunReplay(shard, 'reports/merged/')).toBe(
    'npm run conformance -- --target t.json --seed 7 --report-dir reports/merged-replay --grep files',
  );
  expect(wholeRunReplay("x --report-dir 'a b-replay' --shard 2/2", 'c d')).toBe("x --report-dir 'c d-replay'");
});
