import type { RequirementId } from '../../spec/requirement-ids.ts';
import fc from 'fast-check';
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import type { ApiResponse } from '../../core/http/client.ts';
import { conform, expectSchema } from '../../core/check/expect.ts';
import { invalidLimit, invalidStatusFilter, statusSubset, validLimit } from '../../generators/arbitraries/index.ts';
import { INTERNS_LIMIT } from '../../spec/parameter-bounds.ts';
import { confirmInternsParams, internsQuery, needsInternsParams } from '../support/interns-query.ts';
import { INTERN_STATES, noInternListed } from '../support/interns.ts';
import { checkProperty } from '../support/property.ts';
import { isObject, shown } from '../support/values.ts';
import {
  classifyPageSize,
  classifyStatusFilter,
  type PageSizeValue,
  type StatusFilterValue,
} from '../support/query-values.ts';

// Properties of list interns (4.3); the query parameter names come from the target file (not shown).

/**
 * Invalid queries of one class each (spec/readings.yaml: what every reading refuses, or what one reading
 * may accept), each with the requirement it tests.
 */
function invalidQueries(
  limit: { value: PageSizeValue; requirement: RequirementId },
  status: { value: StatusFilterValue; requirement: RequirementId },
) {
  const bounds = INTERNS_LIMIT();
  return fc.oneof(
    invalidLimit(bounds)
      .filter((l) => classifyPageSize(l.value, bounds.min, bounds.max) === limit.value)
      .map((l) => ({ query: { limit: l.value }, requirement: limit.requirement })),
    invalidStatusFilter()
      .filter((s) => classifyStatusFilter(s, INTERN_STATES) === status.value)
      .map((s) => ({ query: { status: s }, requirement: status.requirement })),
  );
}

export const internsPropertyChecks = defineChecks([
  {
    id: 'interns.property.filter-and-size',
    title:
      'For any subset of statuses and any valid page size: only those statuses, newest first, at most the page size',
    operation: 'listInterns',
    kind: 'property',
    // interns.limit.bounds-accepted: a page size refused without the filter as well is the size's fault, not the filter's.
    requirements: [
      'interns.status.filter',
      'interns.order.newest-first',
      'interns.limit.respected',
      'interns.limit.bounds-accepted',
    ],
    needs: needsInternsParams,
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // Interns the runs' pages listed: read once the runs are over, never by a predicate.
      let listed = 0;
      await checkProperty(ctx, 'interns.property.filter-and-size', {
        arbitrary: fc.record({ statuses: statusSubset(), limit: validLimit(INTERNS_LIMIT()) }),
        requestsPerRun: 1,
        budgetShare: 0.01,
        predicate: async ({ statuses, limit }) => {
          const res = await ctx.api.listInterns(internsQuery(ctx.target, { limit, status: statuses.join(',') }));
          if (res.status !== 200) {
            // Which of the two the target refused: the page size alone ("Minimum 1, maximum 500", 4.3) or the filter.
            const alone = await ctx.api.listInterns(internsQuery(ctx.target, { limit }));
            ctx.conform(
              alone.status === 200,
              'interns.limit.bounds-accepted',
              `page size ${limit} answered ${alone.status} (with and without a status filter), expected 200 (4.3 "Minimum 1, maximum 500")`,
              alone,
            );
          }
          ctx.conform(
            res.status === 200,
            ctx.requirement,
            `status=${statuses.join(',')} limit=${limit} answered ${res.status}, expected 200`,
            res,
          );
          const data = (res.json as { data?: Array<{ status?: unknown; createdAt?: unknown }> } | undefined)?.data;
          ctx.conform(Array.isArray(data), ctx.requirement, 'data is not an array', res);
          listed += data.length;
          ctx.conform(
            data.length <= limit,
            'interns.limit.respected',
            `${data.length} interns for a page size of ${limit}`,
            res,
          );
          // A status that is no value of section 3 is interns.intern.status-value's to fail: no filter names it.
          const stray = data.find(
            (i) => (INTERN_STATES as readonly unknown[]).includes(i.status) && !statuses.includes(i.status as never),
          );
          ctx.conform(
            !stray,
            ctx.requirement,
            `status filter ${statuses.join(',')} listed an intern in state ${shown(stray?.status)}`,
            res,
          );
          for (let i = 1; i < data.length; i++) {
            const a = Date.parse(String(data[i - 1]!.createdAt));
            const b = Date.parse(String(data[i]!.createdAt));
            ctx.conform(
              !(b > a),
              'interns.order.newest-first',
              `data[${i}].createdAt ${data[i]!.createdAt} is newer than data[${i - 1}].createdAt ${data[i - 1]!.createdAt}`,
              res,
            );
          }
        },
      });
      // The page sizes were judged on every answer; the states, order and count only on interns listed.
      if (listed === 0)
        for (const id of ['interns.status.filter', 'interns.order.newest-first', 'interns.limit.respected'] as const)
          ctx.notJudged(id, noInternListed('no page of the property listed one'));
    },
  },
  {
    id: 'interns.property.filter-combinations',
    title:
      'For any combination of status filter, workspace filter, page size and cursor: each filter holds on every page',
    operation: 'listInterns',
    kind: 'property',
    requirements: ['interns.status.filter', 'interns.workspace.filter', 'interns.limit.respected'],
    needs: needsInternsParams,
    estimatedRequests: 2,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // 4.3 gives each parameter its rule whatever else is given: a filter honoured alone and dropped
      // beside another breaks its rule as much as one never honoured. The cursor parameter is the
      // target file's (4.3 "How to fetch the page after one with has_more true: not shown"), so a page
      // it fetches is judged when it comes as a 200 list, never failed for coming otherwise.
      const own = ctx.target.interns.workspaceId;
      const cursorParam = ctx.target.interns.cursorParam;
      const combination = fc
        .record({
          statuses: fc.option(statusSubset(), { nil: undefined }),
          workspace: fc.boolean(),
          limit: fc.option(validLimit(INTERNS_LIMIT()), { nil: undefined }),
          cursor: cursorParam === undefined ? fc.constant(false) : fc.boolean(),
        })
        .filter((c) => c.statuses !== undefined || c.workspace);
      // Interns the judged pages listed: read once the runs are over, never by a predicate.
      let listed = 0;
      await checkProperty(ctx, 'interns.property.filter-combinations', {
        arbitrary: combination,
        requestsPerRun: 2,
        budgetShare: 0.02,
        predicate: async ({ statuses, workspace, limit, cursor }) => {
          const query = internsQuery(ctx.target, {
            ...(limit !== undefined ? { limit } : {}),
            ...(statuses ? { status: statuses.join(',') } : {}),
            ...(workspace ? { workspace: own } : {}),
          });
          const res = await ctx.api.listInterns(query);
          const asked = Object.entries(query)
            .map(([k, v]) => `${k}=${v}`)
            .join('&');
          if (res.status !== 200) {
            // A page size refused is interns.limit.bounds-accepted's: the filters are judged without it.
            const { [ctx.target.interns.params!.limit]: _size, ...filters } = query;
            const unsized = limit === undefined ? res : await ctx.api.listInterns(filters);
            if (unsized.status === 200) return;
            // Refused without any parameter too (a key every request is refused with, 5 rule 2): no filter
            // is judged here; that answer is auth.bearer-accepted's and the error judges'.
            const plain = Object.keys(query).length === 0 ? res : await ctx.api.listInterns({});
            if (plain.status !== 200)
              ctx.skip(`list interns answered ${plain.status} without any parameter: no filter can be judged`);
            // Valid filters, each of a rule of its own: refused together, the filter is not applied.
            ctx.conform(
              false,
              statuses ? 'interns.status.filter' : 'interns.workspace.filter',
              `${asked} answered ${res.status}, expected 200`,
              res,
            );
          }
          const judge = (page: ApiResponse, what: string) => {
            const data = isObject(page.json) && Array.isArray(page.json.data) ? page.json.data : undefined;
            // Not a list: interns.response.schema's.
            if (!data) return;
            listed += data.length;
            if (limit !== undefined)
              ctx.conform(
                data.length <= limit,
                'interns.limit.respected',
                `${what}: ${data.length} interns for a page size of ${limit}`,
                page,
              );
            // The workspace filter names the key's own workspace: an intern of another one on any page is
            // interns.intern.workspace-of-key's, which the page judge holds every page to (4.3).
            for (const [i, intern] of data.entries()) {
              if (!isObject(intern)) continue;
              // A status that is no section 3 state is interns.intern.status-value's, not the filter's.
              if (statuses && (INTERN_STATES as readonly unknown[]).includes(intern.status))
                ctx.conform(
                  statuses.includes(intern.status as never),
                  'interns.status.filter',
                  `${what}: /data/${i} has status ${shown(intern.status)}, not one of the filter's`,
                  page,
                );
            }
            return data;
          };
          const data = judge(res, asked);
          const last = data?.[data.length - 1];
          if (
            !cursor ||
            !isObject(res.json) ||
            res.json.has_more !== true ||
            !isObject(last) ||
            typeof last.id !== 'string'
          )
            return;
          const next = await ctx.api.listInterns({ ...query, [cursorParam!]: last.id });
          if (next.status === 200) judge(next, `${asked}&${cursorParam}=${last.id}`);
        },
      });
      if (listed === 0)
        for (const id of ['interns.status.filter', 'interns.workspace.filter', 'interns.limit.respected'] as const)
          ctx.notJudged(id, noInternListed('no page of the property listed one'));
    },
  },
  {
    id: 'interns.property.invalid-query',
    title:
      'Any page size that is no integer and any status filter with a word that is no state gives an error whose code is invalid_body',
    operation: 'listInterns',
    kind: 'property',
    requirements: ['interns.limit.non-integer-rejected', 'interns.status.unknown-rejected', 'interns.errors.shape'],
    needs: needsInternsParams,
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // Only what every reading refuses (spec/readings.yaml): out-of-range integers and lenient spellings of
      // a state list are interns.property.strict-query's (SHOULD); other spellings of an integer are observed.
      const input = invalidQueries(
        { value: 'not-an-integer', requirement: 'interns.limit.non-integer-rejected' },
        { value: 'unknown', requirement: 'interns.status.unknown-rejected' },
      );
      await checkProperty(ctx, 'interns.property.invalid-query', {
        arbitrary: input,
        requestsPerRun: 1,
        budgetShare: 0.01,
        predicate: async ({ query, requirement }) => {
          const res = await ctx.api.listInterns(internsQuery(ctx.target, query));
          // 7.3: the HTTP status of string-coded errors is not shown: any 4xx.
          conform(
            res.status >= 400 && res.status < 500,
            requirement,
            `${shown(query)} answered ${res.status}, expected a 4xx`,
            res,
          );
          expectSchema(res.json, 'InternsError', 'interns.errors.shape', res);
          const code = (res.json as { error: { code: unknown } }).error.code;
          conform(code === 'invalid_body', requirement, `error.code is ${shown(code)}, expected "invalid_body"`, res);
        },
      });
    },
  },
  {
    id: 'interns.property.strict-query',
    title:
      'Any out-of-range page size and any status list in other letter case or with empty elements gives invalid_body',
    operation: 'listInterns',
    kind: 'property',
    requirements: ['interns.limit.out-of-range-rejected', 'interns.status.invalid-rejected'],
    needs: needsInternsParams,
    estimatedRequests: 1,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // SHOULD (spec/readings.yaml): a page size may be clamped into range (limit-clamped), a state list
      // parsed leniently (status-filter-lenient).
      const input = invalidQueries(
        { value: 'out-of-range', requirement: 'interns.limit.out-of-range-rejected' },
        { value: 'lenient', requirement: 'interns.status.invalid-rejected' },
      );
      await checkProperty(ctx, 'interns.property.strict-query', {
        arbitrary: input,
        requestsPerRun: 1,
        budgetShare: 0.01,
        predicate: async ({ query, requirement }) => {
          const res = await ctx.api.listInterns(internsQuery(ctx.target, query));
          // 7.3: the HTTP status of string-coded errors is not shown: any 4xx.
          ctx.conform(
            res.status >= 400 && res.status < 500,
            requirement,
            `${shown(query)} answered ${res.status}, expected a 4xx with error.code invalid_body`,
            res,
          );
          const code = (res.json as { error?: { code?: unknown } } | undefined)?.error?.code;
          ctx.conform(
            code === 'invalid_body',
            requirement,
            `error.code is ${shown(code)}, expected "invalid_body"`,
            res,
          );
        },
      });
    },
  },
]);
