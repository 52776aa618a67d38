import { expect, test } from '@playwright/test';
import { runConformance } from '../../cli/api.ts';
import { decodeFileId } from '../../core/document/file-id.ts';
import { startReference } from '../../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../../reference/target-file.ts';
import type { ReferenceServer } from '../../reference/options.ts';
import { EXIT_CODE } from '../../reports/format.ts';
import { ALL_CHECKS } from '../../suites/checks/index.ts';
import {
  startHostile,
  writeTargetYaml,
  type Action,
  type HostileServer,
  type Recorded,
} from '../support/hostile-server.ts';

// Pagination that never ends, whose cursor cycles, or whose cursor goes backwards (4.1 rules 1-3): the
// run ends in bounded time whatever the traversal does (the checks walk a bounded number of pages),
// and a cursor that does not move forward is reported. Everything but the main container's listing
// is the reference's, through a proxy, so only the pagination is hostile. The suite runs in-process
// (runConformance: the command's checks, engine and verdict): what is tested is where the walks end,
// not the command around them.
test.describe.configure({ mode: 'parallel' });

type Mode = 'endless' | 'cycle' | 'backwards' | 'empty';

const PATHS = 1_000_000;
const pathOf = (i: number) => `p/${String(i).padStart(6, '0')}`;
const idOf = (i: number) => `cfile_${Buffer.from(pathOf(i), 'utf8').toString('base64url')}`;

/** Smallest index whose path sorts (byte-wise) strictly after `path`. */
function firstAfter(path: string): number {
  const key = Buffer.from(path, 'utf8');
  let lo = 0;
  let hi = PATHS;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Buffer.compare(Buffer.from(pathOf(mid), 'utf8'), key) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function decodeAfter(after: string): string | undefined {
  const d = decodeFileId(after);
  return d.ok && !d.padded ? d.path : undefined;
}

/** A page of an endless container (has_more is always true); `mode` decides where last_id points. */
function page(mode: Mode, containerId: string, limit: number, after: string | undefined): unknown {
  const start = after === undefined ? 0 : firstAfter(decodeAfter(after)!);
  // empty: every page ends at the scan bound with no file and a cursor `limit` paths on (4.1 rule 3:
  // "`data` may be empty"; 8 rule 1 bounds neither the scan bound nor how many such pages come in a row).
  if (mode === 'empty') {
    const end = start + limit;
    return end < PATHS
      ? { object: 'list', data: [], first_id: null, last_id: idOf(end - 1), has_more: true }
      : { object: 'list', data: [], first_id: null, last_id: null, has_more: false };
  }
  const indexes = Array.from({ length: Math.min(limit, PATHS - start) }, (_, k) => start + k);
  const data = indexes.map((i) => ({
    id: idOf(i),
    object: 'container.file',
    container_id: containerId,
    bytes: 100 + i,
    created_at: 1_700_000_000,
    path: pathOf(i),
    source: 'assistant',
  }));
  const last = start + indexes.length - 1;
  let lastId = idOf(last);
  // cycle: from the third page on, the cursor points back at the end of the first page (pages 2, 3, 2, 3, ...)
  if (mode === 'cycle' && start >= 2 * limit) lastId = idOf(limit - 1);
  // backwards: every resumed page hands back a cursor before the one it was asked with
  if (mode === 'backwards' && after !== undefined) lastId = idOf(Math.max(0, start - 2));
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: lastId, has_more: true };
}

function responder(mode: Mode, reference: ReferenceServer): (req: Recorded) => Action {
  const proxy: Action = { kind: 'proxy', to: reference.baseUrl };
  return (req) => {
    const url = new URL(req.url, 'http://x');
    const m = /^\/v1\/containers\/([^/]+)\/files$/.exec(url.pathname);
    if (!m || decodeURIComponent(m[1]!) !== reference.fixtures.containerId) return proxy;
    if (req.headers.authorization !== `Bearer ${reference.keys.management}`) return proxy;
    const rawLimit = url.searchParams.get('limit');
    const after = url.searchParams.get('after') ?? undefined;
    if (rawLimit !== null && (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 1000)) return proxy;
    if (after !== undefined && decodeAfter(after) === undefined) return proxy;
    return {
      kind: 'json',
      body: page(mode, reference.fixtures.containerId, rawLimit === null ? 100 : Number(rawLimit), after),
    };
  };
}

const servers: Array<HostileServer | ReferenceServer> = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Checks that judge whether a cursor moves forward (written in suites/checks/). */
const PROGRESS_REQUIREMENTS = [
  'files.pagination.progress',
  'files.after.strictly-after',
  'files.pagination.scan-bound-position',
  'files.pagination.last-id-is-last-listed',
];
const progressChecked = ALL_CHECKS.some((c) => c.requirements.some((r) => PROGRESS_REQUIREMENTS.includes(r)));

/** The run's request budget, and the bound on the requests a run may send here. */
const MAX_REQUESTS = 1000;

const WHAT: Record<Mode, string> = {
  endless: 'endless',
  cycle: 'cycling',
  backwards: 'going backwards',
  empty: 'endless through empty scan-bound pages',
};

for (const mode of ['endless', 'cycle', 'backwards', 'empty'] as const) {
  test(`pagination whose cursor is ${WHAT[mode]}: the files checks end in bounded time`, async () => {
    test.setTimeout(180_000);
    const reference = await startReference();
    servers.push(reference);
    const hostile = await startHostile(responder(mode, reference));
    servers.push(hostile);
    const file = writeTargetYaml(referenceTargetYaml(reference).replace(reference.baseUrl, hostile.baseUrl));
    // A request budget of MAX_REQUESTS, the bound asserted below, rather than the default 2000: the
    // shared full listing reads at most its share of the budget (FULL_LISTING_SHARE, traversal.ts),
    // and the other checks' own shares and page caps end their walks within the rest.
    const report = await runConformance({
      target: file,
      timeoutMs: 10_000,
      grep: '@files',
      maxRequests: MAX_REQUESTS,
      env: referenceKeyEnv(reference),
    });
    // Ended by the checks' own shares and page caps, never by a time-out. An endless listing of full pages
    // outlasts the full traversal's share, and what it spent may leave checks after it unjudged for the
    // budget (said, never failed: asserted below); the other modes end within the budget.
    if (mode !== 'endless')
      expect(report.run.budgetExhausted.filter((id) => id !== 'files.property.traversal')).toEqual([]);
    expect(report.checks.filter((c) => /time limit|deadline of [\d.]+ s passed/.test(c.reason ?? ''))).toEqual([]);
    const pages = hostile.received.filter((r) => r.url.includes('/files') && r.url.includes('after='));
    // Bounded by what the time stands for: the requests sent, never the budget's end (the test's own
    // time-out catches a hang).
    expect(report.run.requests).toBeLessThan(MAX_REQUESTS);
    test.info().annotations.push({
      type: 'bound',
      description: `${report.run.requests} requests (${pages.length} with after=), verdict ${report.verdict}`,
    });
    const code = EXIT_CODE[report.verdict];
    if (mode === 'empty') {
      // Faithful as far as any number of pages can show: the suite's own bounds leave questions unjudged
      // (skips with the reason), they fail nothing, and the run is not cut by the budget.
      expect(report.requirements.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
      expect(report.checks.filter((c) => c.status === 'error').map((c) => `${c.checkId}: ${c.reason}`)).toEqual([]);
      expect(report.verdict).toBe('conformant');
    } else if (mode === 'endless') {
      // A listing longer than the budget can read is not a failure by itself: nothing is failed for it,
      // and what was left unread is said (INCOMPLETE: the traversal's MUSTs not judged, for the budget).
      expect([0, 1, 2]).toContain(code);
      if (code === 2) expect(report.verdict).toBe('incomplete');
      expect(report.checks.filter((c) => c.status === 'error')).toEqual([]);
    } else if (progressChecked) {
      expect(code).toBe(1);
      expect(report.verdict).toBe('non-conformant');
      const failed = report.requirements.filter((r) => r.status === 'fail').map((r) => r.id);
      expect(failed.some((id) => PROGRESS_REQUIREMENTS.includes(id))).toBe(true);
    } else {
      test.info().annotations.push({
        type: 'pending',
        description: 'no check judges cursor progress yet (suites/checks/pagination.ts)',
      });
    }
  });
}
