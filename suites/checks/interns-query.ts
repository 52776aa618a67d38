/**
 * List interns query parameters (4.3, 7.3, 8): the page size (1 to 500), the lifecycle status filter
 * (values of section 3) and the workspace filter (the key's workspace; no default-workspace fallback).
 * Their names are not shown: the target file names them (interns.params).
 */
import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { expectSchema, expectStatus } from '../../core/check/expect.ts';
import { INTERN_STATES, expectInvalidBody, internPage, noInternListed, widestInternPage } from '../support/interns.ts';
import { confirmInternsParams, internsQuery, needsInternsParams } from '../support/interns-query.ts';
import { errorBody } from '../support/operations.ts';
import { compareUtf16 } from '../support/path-order.ts';
import { shown, tally } from '../support/values.ts';
import { INTERNS_LIMIT } from '../../spec/parameter-bounds.ts';
import { expectEachInvalid, needsOtherWorkspace, sameUuid } from '../support/interns-checks.ts';

/** Spellings of an integer limit the document does not rule on (interns.limit.spelling). */
const INTERNS_LIMIT_SPELLINGS = ['1e2', '2.0', '+5', '05', ''];

export const internsQueryChecks = defineChecks([
  {
    id: 'interns.limit.bounds-accepted',
    title: 'Page sizes 1 and 500 are accepted',
    operation: 'listInterns',
    requirements: ['interns.limit.bounds-accepted'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // 4.3 / 8: "Minimum 1, maximum 500" — both ends are valid page sizes.
      for (const limit of [1, 500]) {
        const res = await ctx.api.listInterns(internsQuery(ctx.target, { limit }));
        expectStatus(res, 200, 'interns.limit.bounds-accepted', `page size ${limit}`);
      }
    },
  },
  {
    id: 'interns.limit.respected',
    title: 'A page never holds more interns than the requested page size',
    operation: 'listInterns',
    requirements: ['interns.limit.respected'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      const limit = 2;
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { limit }));
      // 4.3: 2 lies within 1..500, so the answer is a page (refusing it would also break this requirement).
      expectStatus(res, 200, 'interns.limit.respected', `page size ${limit}`);
      const { body } = internPage(ctx, res);
      const n = (body.data as unknown[]).length;
      // 4.3: "Maximum number of interns to return".
      ctx.conform(n <= limit, ctx.requirement, `page size ${limit} requested, ${n} interns returned`, res);
      if (n === 0) ctx.notJudged(ctx.requirement, noInternListed('no intern to count against the page size'));
    },
  },
  {
    id: 'interns.limit.non-integer',
    title: 'Page sizes "abc" and "1.5" are rejected with invalid_body',
    operation: 'listInterns',
    requirements: ['interns.limit.non-integer-rejected'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      // 4.3: an integer; 7.3: invalid query parameters -> invalid_body. No integer under any reading.
      await expectEachInvalid(ctx, 'interns.limit.non-integer-rejected', 'limit', ['abc', '1.5']);
    },
  },
  {
    id: 'interns.limit.out-of-range',
    title: 'Page sizes 0 and 501 are rejected with invalid_body',
    operation: 'listInterns',
    requirements: ['interns.limit.out-of-range-rejected'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      // 4.3 / 8: minimum 1, maximum 500; 7.3: invalid query parameters -> invalid_body. SHOULD: the bounds
      // also read as those of the page size used (reading limit-clamped).
      await expectEachInvalid(ctx, 'interns.limit.out-of-range-rejected', 'limit', ['0', '501']);
    },
  },
  {
    id: 'interns.limit.maximum',
    title: 'Page sizes 501 and 1000 are refused, or answered with at most 500 interns',
    operation: 'listInterns',
    requirements: ['interns.limit.maximum'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // 4.3 / 8 "maximum 500": refused (SHOULD, interns.limit.out-of-range-rejected) or clamped, never exceeded.
      let judged = false;
      for (const limit of [501, 1000]) {
        const res = await ctx.api.listInterns(internsQuery(ctx.target, { limit }));
        // A refusal is judged as it is; a page is judged by the interns it lists.
        if (res.status !== 200) {
          judged = true;
          continue;
        }
        const n = internPage(ctx, res).interns.length;
        if (n > 0) judged = true;
        ctx.conform(
          n <= 500,
          ctx.requirement,
          `page size ${limit} answered ${n} interns, more than the maximum of 500`,
          res,
        );
      }
      if (!judged) ctx.notJudged(ctx.requirement, noInternListed('no intern to count against the maximum'));
    },
  },
  {
    id: 'interns.limit.spelling',
    title: 'What page sizes 1e2, 2.0, +5, 05 and an empty one get (the spelling of an integer is left open)',
    operation: 'listInterns',
    kind: 'observation',
    requirements: ['general.integer-spelling'],
    needs: needsInternsParams,
    estimatedRequests: INTERNS_LIMIT_SPELLINGS.length,
    async probe(ctx: ProbeContext) {
      // 4.3 gives the type "integer", not how a query string spells one (readings limit-number-spellings, limit-empty-default).
      const seen: Record<string, number> = {};
      for (const v of INTERNS_LIMIT_SPELLINGS)
        seen[`${ctx.target.interns.params!.limit}=${v}`] = (
          await ctx.api.listInterns(internsQuery(ctx.target, { limit: v }))
        ).status;
      ctx.observe('general.integer-spelling', { operation: 'listInterns', statuses: seen });
    },
  },
  {
    id: 'interns.status.filter',
    title: 'A status filter (one value, then two comma-separated) lists only interns in those states',
    operation: 'listInterns',
    requirements: ['interns.status.filter'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // Data-agnostic: the states to filter on are taken from what the key lists, rarest first, so a
      // filter that is not applied shows other states.
      const { interns } = await widestInternPage(ctx);
      const counts: Record<string, number> = {};
      for (const intern of interns)
        if ((INTERN_STATES as readonly string[]).includes(String(intern.status))) tally(counts, String(intern.status));
      // Ties by code units, not localeCompare: the same choice on every machine, whatever its locale
      // (and no collator to load on the engine's thread).
      const seen = Object.keys(counts).sort((a, b) => (counts[a] ?? 0) - (counts[b] ?? 0) || compareUtf16(a, b));
      const first = seen[0];
      if (first === undefined) return ctx.skip('the key lists no intern in a section 3 state: no status to filter on');
      const second = seen[1] ?? INTERN_STATES.find((s) => s !== first)!;
      // 4.3: "Lifecycle statuses to include | Comma-separated list of values from section 3".
      for (const wanted of [[first], [first, second]]) {
        const value = wanted.join(',');
        // The widest page (8 "Page size 1 to 500"), so that the filtered list is whole more often.
        const res = await ctx.api.listInterns(internsQuery(ctx.target, { status: value, limit: INTERNS_LIMIT().max }));
        expectStatus(res, 200, 'interns.status.filter', `status filter ${shown(value)}`);
        const page = internPage(ctx, res);
        for (const [i, intern] of page.interns.entries()) {
          ctx.conform(
            wanted.includes(String(intern.status)),
            ctx.requirement,
            `status filter ${shown(value)}: /data/${i} has status ${shown(intern.status)}`,
            res,
          );
        }
        // "Lifecycle statuses to include": a filtered list that is whole (has_more false) includes every
        // intern of those states the unfiltered page showed (each value of the list applied, not the first).
        if (page.body.has_more !== false) continue;
        const listed = new Set(page.interns.map((x) => String(x.id)));
        const missing = interns.filter((x) => wanted.includes(String(x.status)) && !listed.has(String(x.id)));
        ctx.conform(
          missing.length === 0,
          ctx.requirement,
          `status filter ${shown(value)} answered a whole list (has_more false) without ${missing.length} intern(s) of those states the unfiltered page lists, e.g. ${shown(String(missing[0]?.id)).slice(0, 80)} (${shown(missing[0]?.status)})`,
          res,
        );
      }
    },
  },
  {
    id: 'interns.status.unknown-rejected',
    title: 'A status that is no section 3 state in any letter case is rejected with invalid_body',
    operation: 'listInterns',
    requirements: ['interns.status.unknown-rejected'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      // 4.3: values from section 3 only; 7.3: invalid query -> invalid_body.
      await expectEachInvalid(ctx, 'interns.status.unknown-rejected', 'status', ['sleeping', 'running,deleted']);
    },
  },
  {
    id: 'interns.status.invalid-rejected',
    title: 'A status list with a state in capitals or an empty element is rejected with invalid_body',
    operation: 'listInterns',
    requirements: ['interns.status.invalid-rejected'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      // 4.3: "Comma-separated list of values from section 3", exactly as written there. SHOULD: lenient
      // parsers fold case and skip empty elements (reading status-filter-lenient).
      await expectEachInvalid(ctx, 'interns.status.invalid-rejected', 'status', [
        'RUNNING',
        'running,',
        'running,,failed',
      ]);
    },
  },
  {
    id: 'interns.workspace.filter',
    title: "The workspace filter set to the key's workspace lists only that workspace",
    operation: 'listInterns',
    requirements: ['interns.workspace.filter'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      const own = ctx.target.interns.workspaceId;
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { workspace: own }));
      // 4.3: "Only interns of this workspace; it must match the workspace of the API key" — it does here.
      expectStatus(res, 200, 'interns.workspace.filter', "workspace filter set to the key's own workspace");
      const { interns } = internPage(ctx, res);
      if (interns.length === 0) ctx.notJudged(ctx.requirement, noInternListed('no intern whose workspace to judge'));
      for (const [i, intern] of interns.entries()) {
        ctx.conform(
          sameUuid(intern.workspaceId, own),
          ctx.requirement,
          `workspace filter ${own}: /data/${i}/workspaceId is ${shown(intern.workspaceId)}`,
          res,
        );
      }
    },
  },
  {
    id: 'interns.workspace.mismatch-no-fallback',
    title: 'A workspace filter naming another workspace lists no intern: refused, or an empty list',
    operation: 'listInterns',
    requirements: ['interns.workspace.mismatch-no-fallback'],
    needs: needsOtherWorkspace,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      const other = ctx.target.interns.otherWorkspaceId!;
      // Alone, and with a page size: the rule holds for every query that names the workspace, and a server
      // whose check applies only to the bare filter falls back with another parameter beside it.
      for (const limit of [undefined, 1]) {
        const res = await ctx.api.listInterns(internsQuery(ctx.target, { workspace: other, limit }));
        const asked = `workspace filter ${other} (not the key's)${limit === undefined ? '' : ` with limit ${limit}`}`;
        // 4.3: "Only interns of this workspace; it must match the workspace of the API key" and "there is
        // no default-workspace fallback": a refusal (4xx with the 7.3 body) or an empty list (reading
        // workspace-mismatch-empty), never an intern, of the key's workspace or of the other one.
        if (res.status >= 200 && res.status < 300) {
          const data = internPage(ctx, res).interns;
          const ws = [...new Set(data.map((x) => String(x.workspaceId)))].slice(0, 3);
          ctx.conform(
            data.length === 0,
            ctx.requirement,
            `${asked} answered HTTP ${res.status} listing ${data.length} interns${ws.length ? ` of workspace(s) ${ws.join(', ')}` : ''}`,
            res,
          );
          continue;
        }
        ctx.conform(
          res.status >= 400 && res.status < 500,
          ctx.requirement,
          `${asked}: expected a 4xx error or an empty list, got HTTP ${res.status}`,
          res,
        );
        expectSchema(
          errorBody(res, 'interns.workspace.mismatch-no-fallback'),
          'InternsError',
          'interns.workspace.mismatch-no-fallback',
          res,
        );
      }
    },
  },
  {
    id: 'interns.workspace.mismatch-refused',
    title: 'A workspace filter naming another workspace is refused with an error, not answered 200',
    operation: 'listInterns',
    requirements: ['interns.workspace.mismatch-refused'],
    needs: needsOtherWorkspace,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      const other = ctx.target.interns.otherWorkspaceId!;
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { workspace: other }));
      // 4.3: "it must match the workspace of the API key". SHOULD: an empty list also keeps every intern
      // out (reading workspace-mismatch-empty). The status is not named, so any 4xx is a refusal.
      ctx.conform(
        res.status >= 400 && res.status < 500,
        ctx.requirement,
        `workspace filter ${other} (not the key's): expected a 4xx error, got HTTP ${res.status}`,
        res,
      );
      // 7.3: the refusal carries the interns error body.
      expectSchema(
        errorBody(res, 'interns.workspace.mismatch-refused'),
        'InternsError',
        'interns.workspace.mismatch-refused',
        res,
      );
    },
  },
  {
    id: 'interns.workspace.malformed-refused',
    title: 'A workspace filter that is not a UUID is refused with an error carrying the 7.3 body',
    operation: 'listInterns',
    requirements: ['interns.workspace.malformed-refused'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // 4.3: "Workspace filter | string (UUID format)" that "must match the workspace of the API key":
      // refused as an invalid query (invalid_body) or as not permitted (403, reading
      // workspace-malformed-forbidden), never answered 200.
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { workspace: 'not-a-uuid' }));
      ctx.conform(
        res.status >= 400 && res.status < 500,
        ctx.requirement,
        `workspace filter "not-a-uuid": expected a 4xx error, got HTTP ${res.status}`,
        res,
      );
      expectSchema(
        errorBody(res, 'interns.workspace.malformed-refused'),
        'InternsError',
        'interns.workspace.malformed-refused',
        res,
      );
    },
  },
  {
    id: 'interns.workspace.malformed-rejected',
    title: 'A workspace filter that is not a UUID is rejected with invalid_body',
    operation: 'listInterns',
    requirements: ['interns.workspace.malformed-rejected'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      // 4.3: "Workspace filter | string (UUID format)"; 7.3: invalid query -> invalid_body. SHOULD: 403
      // is the other reading (it cannot match the key's workspace).
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { workspace: 'not-a-uuid' }));
      expectInvalidBody(res, 'interns.workspace.malformed-rejected', 'workspace filter "not-a-uuid"');
    },
  },
]);
