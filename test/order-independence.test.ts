import { expect, test } from '@playwright/test';
import { listingOf } from '../core/check/check-listing.ts';
import { FAULTS } from '../reference/faults/index.ts';
import type { ConformanceReport } from '../reports/model.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { runEngineAgainst } from './support/harness.ts';

// A requirement's status does not depend on what else ran. A run of only the checks
// that declare a requirement (what `--grep` of them selects) and each shard of a split that holds all
// of a requirement's checks give it the status of the full run, on the reference and on a sample of
// faults: whole-run checks run after the others in any selection and provoke what they judge
// themselves, and record rules read what their own checks fetch.
test.describe.configure({ mode: 'parallel' });

const SEED = 31;
const SHARDS = 3;

function statuses(report: ConformanceReport): Map<string, string> {
  return new Map(
    report.requirements
      .filter((r) => r.status !== 'disabled' && r.level !== 'UNSPECIFIED')
      .map((r) => [r.id, r.status]),
  );
}

/** Playwright's split of one file's tests into shards: contiguous, the first ones one longer. */
function shardOf(index: number, total: number, shards: number): number {
  const size = Math.floor(total / shards);
  const extra = total % shards;
  let start = 0;
  for (let s = 0; s < shards; s++) {
    const len = size + (s < extra ? 1 : 0);
    if (index < start + len) return s;
    start += len;
  }
  return shards - 1;
}

const SAMPLE = [
  undefined,
  ...FAULTS.filter((f) => f.operation !== 'general')
    .filter((_, i) => i % 17 === 3)
    .map((f) => f.name),
];

for (const fault of SAMPLE) {
  test(`each check alone and each of ${SHARDS} shards give the full run's statuses (${fault ?? 'reference'})`, async () => {
    const options = fault ? { faults: [fault] } : {};
    const full = statuses(await runEngineAgainst(options, { settings: { seed: SEED } }));
    expect(full.size, 'requirements judged in the full run').toBeGreaterThan(0);
    // A fault of the sample fails something in the full run: else its statuses are the reference's.
    if (fault) expect([...full.values()], `${fault} fails a requirement`).toContain('fail');
    const differ: string[] = [];
    const covering = (req: string) =>
      ALL_CHECKS.filter((c) => (c.requirements as readonly string[]).includes(req)).map((c) => c.id);
    // Requirements declared by the same checks share the run of those checks alone (one selection, one run).
    const runsAlone = new Map<string, Promise<Map<string, string>>>();
    for (const [req, status] of full) {
      const own = covering(req);
      if (own.length === 0) continue;
      const selection = own.join('|');
      if (!runsAlone.has(selection))
        runsAlone.set(
          selection,
          runEngineAgainst(options, { settings: { seed: SEED }, select: (id) => own.includes(id) }).then(statuses),
        );
      const alone = await runsAlone.get(selection)!;
      if (alone.get(req) !== status) differ.push(`--grep ${selection}: ${req} ${alone.get(req)} (full run ${status})`);
    }
    // Playwright splits the tests in their listed order (core/check/check-listing.ts).
    const ids = listingOf(ALL_CHECKS).map((c) => c.id);
    // How many requirements each shard holds whole: a shard that held none would compare nothing.
    const comparedPerShard: number[] = [];
    for (let s = 0; s < SHARDS; s++) {
      const inShard = (id: string) => shardOf(ids.indexOf(id), ids.length, SHARDS) === s;
      const shard = statuses(await runEngineAgainst(options, { settings: { seed: SEED }, select: inShard }));
      let compared = 0;
      for (const [req, status] of full) {
        const own = covering(req);
        if (!own.length || !own.every(inShard)) continue;
        compared++;
        if (shard.get(req) !== status)
          differ.push(`--shard ${s + 1}/${SHARDS}: ${req} ${shard.get(req)} (full run ${status})`);
      }
      comparedPerShard.push(compared);
    }
    expect(differ).toEqual([]);
    expect(
      comparedPerShard.filter((n) => n === 0),
      `requirements compared per shard: ${comparedPerShard}`,
    ).toEqual([]);
  });
}
