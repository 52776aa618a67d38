/**
 * List-interns pages of one query at several page sizes, judged together: every 200 page
 * the run received with the management key, whichever check asked it, and pages of this check's own,
 * the unfiltered listing and one status at a few page sizes. 2.6 "Newest first" within a page is the
 * page judge's; here a page sorted newest first that is not the newest interns of its query fails
 * (suites/support/intern-prefixes.ts).
 */
import { firstThrown, settleInFlight } from '../../core/http/in-flight.ts';
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { ConformanceFailure } from '../../core/check/errors.ts';
import type { Exchange } from '../../core/check/evidence.ts';
import { INTERNS_LIMIT } from '../../spec/parameter-bounds.ts';
import { notNewest, type InternPageNote, type NotNewest } from '../support/intern-prefixes.ts';
import { confirmInternsParams, internsQuery, needsInternsParams } from '../support/interns-query.ts';
import { noInternListed } from '../support/interns.ts';
import { isObject } from '../support/values.ts';

/** Page sizes of this check's own pages (with the largest, 8 "Page size 1 to 500"): small cuts, where a page that is not the newest shows. */
const OWN_SIZES = [1, 3, 10] as const;

const JUDGE_ID = 'interns.pages';

/** The interns (id, createdAt in ms) of a page asked again, or undefined when it is no 200 list. */
function internsOf(json: unknown): Map<string, number> | undefined {
  if (!isObject(json) || !Array.isArray(json.data)) return undefined;
  const out = new Map<string, number>();
  for (const i of json.data)
    if (isObject(i) && typeof i.id === 'string')
      out.set(i.id.toLowerCase(), typeof i.createdAt === 'string' ? Date.parse(i.createdAt) : NaN);
  return out;
}

/**
 * The finding asked of the target again (api.fresh: never the run's memory of it), the other page first
 * and then the page that left the newer intern out (the notes keep no bodies): confirmed when the page still lists the older intern and not the newer one,
 * which the other page still lists. An intern created between the two requests would be listed by the
 * page asked last, so it is never taken for one left out.
 */
async function confirmed(ctx: ProbeContext, f: NotNewest): Promise<Exchange[] | undefined> {
  const other = await ctx.api.fresh.listInterns(f.other.query);
  const page = await ctx.api.fresh.listInterns(f.page.query);
  const o = other.status === 200 ? internsOf(other.json) : undefined;
  const p = page.status === 200 ? internsOf(page.json) : undefined;
  if (!o || !p || !o.has(f.newer.id) || p.has(f.newer.id) || !p.has(f.older.id)) return undefined;
  return [page.exchange, other.exchange];
}

const describe = (query: Readonly<Record<string, string>>) =>
  Object.keys(query).length
    ? Object.entries(query)
        .map(([k, v]) => `${k}=${v}`)
        .join('&')
    : 'no parameter';

/**
 * This check's own pages: the unfiltered listing, then one status the widest page shows, at each size
 * and the largest. Each set asked together (the notes are read in key order, whatever order the
 * answers came in).
 */
async function ownPages(ctx: ProbeContext): Promise<void> {
  await confirmInternsParams(ctx);
  const sizes = [...OWN_SIZES, INTERNS_LIMIT().max];
  const pages = (query: (limit: number) => { limit: number; status?: string }) =>
    settleInFlight(sizes, sizes.length, (limit) => ctx.api.listInterns(internsQuery(ctx.target, query(limit))));
  const unfiltered = await pages((limit) => ({ limit }));
  firstThrown(unfiltered);
  const widest = unfiltered[unfiltered.length - 1]!;
  const data =
    widest.ok && isObject(widest.value.json) && Array.isArray(widest.value.json.data) ? widest.value.json.data : [];
  const first = data.find((i) => isObject(i) && typeof i.status === 'string');
  const status = isObject(first) ? String(first.status) : undefined;
  if (status !== undefined) firstThrown(await pages((limit) => ({ limit, status })));
}

export const internsPrefixChecks = defineChecks([
  {
    id: 'interns.order.newest-prefix',
    title:
      'A page of list interns is the newest interns of its query: the first k of the same query at a larger page size',
    operation: 'listInterns',
    requirements: ['interns.order.newest-first'],
    wholeRun: true,
    needs: needsInternsParams,
    estimatedRequests: 2 * (OWN_SIZES.length + 1) + 3,
    // Sent beside the other checks; asked again by the probe, the run's memory answers.
    gather: ownPages,
    async probe(ctx: ProbeContext) {
      await ownPages(ctx);
      const names = ctx.target.interns.params!;
      const notes = ctx.notes.of(JUDGE_ID) as InternPageNote[];
      if (notes.every((n) => n.ids.length === 0))
        ctx.notJudged(ctx.requirement, noInternListed('no page of the run listed one, no order to judge'));
      for (const f of notNewest(notes, names.limit, 3)) {
        const evidence = await confirmed(ctx, f);
        if (!evidence) continue;
        const iso = (ms: number) => new Date(ms).toISOString();
        throw new ConformanceFailure(
          'interns.order.newest-first',
          `the page asked with ${describe(f.page.query)} lists ${f.page.ids.length} interns, among them ${f.older.id} (createdAt ${iso(f.older.at)}), but not ${f.newer.id} (createdAt ${iso(f.newer.at)}, newer), which the same query lists with ${describe(f.other.query)}: the page is not the newest interns of its query (2.6 "Newest first"; 4.3 "Lists the interns visible to the authenticated key, newest first")`,
          evidence,
        );
      }
      if (ctx.notes.dropped > 0)
        ctx.skip(
          `the run's notes reached their bound (${ctx.notes.dropped} response(s) not kept): only part of the run's pages was compared, so the requirement is not judged whole`,
        );
    },
  },
]);
