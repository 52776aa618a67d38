import { defineChecks, type ProbeContext } from '../../core/check.ts';
import { CannotJudge } from '../../core/errors.ts';
import { expectSchema, expectStatus } from '../../core/expect.ts';
import type { TargetView } from '../../core/target.ts';
import { INTERN_STATES, expectInvalidBody, internPage, plainInternPage, someInterns } from '../support/interns.ts';
import { confirmInternsParams, internsQuery, needsInternsParams } from '../support/interns-query.ts';
import { expectJsonBody } from '../support/json-media.ts';
import { errorBody } from '../support/operations.ts';
import { brief, jsonType, tally } from '../support/values.ts';
import {
  hostnameNameJudgeable, hostnameNameRule, hostnameShapeRule, modelShapeRule, statusValueRule, timestampsRule, uuidFieldsRule,
} from '../judges/intern-records.ts';
import { conformRecord } from '../judges/records.ts';
import { conformToSchema } from '../judges/response-schema.ts';

/** Values kept per list in an observation. */
const CAP = 12;

function needsOtherWorkspace(t: TargetView): string | undefined {
  return needsInternsParams(t) ?? (t.interns.otherWorkspaceId ? undefined : 'interns.otherWorkspaceId is not set in the target file');
}

const sameUuid = (a: unknown, b: string): boolean => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** 7.3: each value of one query parameter is refused with invalid_body (any 4xx: the status of string codes is not shown). */
async function expectEachInvalid(ctx: ProbeContext, requirementId: string, param: 'limit' | 'status', values: readonly string[]): Promise<void> {
  await confirmInternsParams(ctx);
  for (const value of values) {
    const res = await ctx.api.listInterns(internsQuery(ctx.target, { [param]: value }));
    expectInvalidBody(res, requirementId, `${param === 'limit' ? 'page size' : 'status'} ${JSON.stringify(value)}`);
  }
}

export const internsChecks = defineChecks([
  {
    id: 'interns.response.schema',
    title: 'The interns of the key come as an intern list of 2.6 made of interns of 2.5',
    operation: 'listInterns',
    requirements: ['interns.list.schema', 'interns.intern.field-types', 'interns.intern.schema', 'general.json-body'],
    async probe(ctx: ProbeContext) {
      const res = await ctx.api.listInterns();
      expectStatus(res, 200, 'interns.list.schema');
      // Section 1 "exchanges JSON" (4.3 names no media type: application/json is general.json-media-type's SHOULD).
      expectJsonBody(res, 'general.json-body');
      // 2.6: data (array) and has_more (boolean) are the list's; a violation inside data[n] is the
      // intern's: a field of the wrong type fails interns.intern.field-types (MUST), a missing one
      // interns.intern.schema (SHOULD: 2.5 has no Required column). UUID format, timestamp
      // form, hostname and model shape and the status value are requirements of their own (below).
      conformToSchema(ctx, 'listInterns', res);
    },
  },
  {
    id: 'interns.intern.uuid-fields',
    title: 'id, workspaceId and vault_id are UUIDs',
    operation: 'listInterns',
    requirements: ['interns.intern.uuid-fields'],
    async probe(ctx: ProbeContext) {
      // 2.5: "string (UUID format)" (the rule: suites/judges/intern-records.ts, for every intern of the run).
      const { res, interns } = await someInterns(ctx);
      for (const [i, intern] of interns.entries()) conformRecord(ctx, uuidFieldsRule, intern, res, `/data/${i}`);
    },
  },
  {
    id: 'interns.intern.timestamps',
    title: 'createdAt and updatedAt are ISO 8601 UTC timestamps with milliseconds',
    operation: 'listInterns',
    requirements: ['interns.intern.timestamps'],
    async probe(ctx: ProbeContext) {
      // 2.5: "ISO 8601 UTC timestamp with milliseconds": three fraction digits, UTC (Z or +00:00), a real date.
      const { res, interns } = await someInterns(ctx);
      for (const [i, intern] of interns.entries()) conformRecord(ctx, timestampsRule, intern, res, `/data/${i}`);
    },
  },
  {
    id: 'interns.intern.hostname-shape',
    title: 'hostname has the form <intern_name>.<domain>',
    operation: 'listInterns',
    requirements: ['interns.intern.hostname-shape'],
    async probe(ctx: ProbeContext) {
      // 2.5: "<intern_name>.<domain>": at least two non-empty dot-separated labels (requirement interpretation).
      const { res, interns } = await someInterns(ctx);
      for (const [i, intern] of interns.entries()) conformRecord(ctx, hostnameShapeRule, intern, res, `/data/${i}`);
    },
  },
  {
    id: 'interns.intern.hostname-name',
    title: 'The first label of hostname is the intern name',
    operation: 'listInterns',
    requirements: ['interns.intern.hostname-name'],
    async probe(ctx: ProbeContext) {
      const { res, interns } = await someInterns(ctx);
      // Only a name that is itself a host label can appear verbatim in a host name; how a display
      // name becomes a label is not shown (requirement interpretation), so other interns are skipped.
      if (!interns.some(hostnameNameJudgeable)) return ctx.skip('no listed intern has a name that is a valid host label');
      // 2.5: "<intern_name>.<domain>"; host names compare case-insensitively (RFC 4343).
      for (const [i, intern] of interns.entries()) conformRecord(ctx, hostnameNameRule, intern, res, `/data/${i}`);
    },
  },
  {
    id: 'interns.intern.model-shape',
    title: 'model is a model identifier <author>/<slug>',
    operation: 'listInterns',
    requirements: ['interns.intern.model-shape'],
    async probe(ctx: ProbeContext) {
      // 2.5: "Model identifier <author>/<slug>" (as 2.3).
      const { res, interns } = await someInterns(ctx);
      for (const [i, intern] of interns.entries()) conformRecord(ctx, modelShapeRule, intern, res, `/data/${i}`);
    },
  },
  {
    id: 'interns.intern.status-value',
    title: 'status is one of the lifecycle states of section 3',
    operation: 'listInterns',
    requirements: ['interns.intern.status-value'],
    async probe(ctx: ProbeContext) {
      // 2.5 / 3: "One of the lifecycle statuses in section 3" (exact, case-sensitive values).
      const { res, interns } = await someInterns(ctx);
      for (const [i, intern] of interns.entries()) conformRecord(ctx, statusValueRule, intern, res, `/data/${i}`);
    },
  },
  {
    id: 'interns.intern.workspace-of-key',
    title: 'Every listed intern belongs to the workspace of the API key',
    operation: 'listInterns',
    requirements: ['interns.intern.workspace-of-key'],
    async probe(ctx: ProbeContext) {
      const { res, interns } = await someInterns(ctx);
      const own = ctx.target.interns.workspaceId;
      for (const [i, intern] of interns.entries()) {
        // 4.3: "The API key selects the caller, the workspace and the visible interns; there is no
        // default-workspace fallback"; 5 rule 4. UUIDs compare case-insensitively (RFC 9562 section 4).
        ctx.conform(sameUuid(intern.workspaceId, own), `/data/${i}/workspaceId ${JSON.stringify(intern.workspaceId)} is not the key's workspace ${own}`, res);
      }
    },
  },
  {
    id: 'interns.order.newest-first',
    title: 'Interns are listed newest first',
    operation: 'listInterns',
    requirements: ['interns.order.newest-first'],
    async probe(ctx: ProbeContext) {
      const { res, interns } = await someInterns(ctx);
      if (interns.length < 2) return ctx.skip('fewer than two interns listed: no order to judge');
      // 2.6 "Newest first" / 4.3: createdAt never increases along data; equal instants may come in
      // any order. Unparseable timestamps are interns.intern.timestamps' and are left out here.
      let prev: { i: number; at: number; text: string } | undefined;
      for (const [i, intern] of interns.entries()) {
        const text = typeof intern.createdAt === 'string' ? intern.createdAt : '';
        const at = Date.parse(text);
        if (!Number.isFinite(at)) continue;
        ctx.conform(!prev || at <= prev.at, `/data/${i}/createdAt ${text} is newer than /data/${prev?.i}/createdAt ${prev?.text}: not newest first`, res);
        prev = { i, at, text };
      }
    },
  },
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
      ctx.conform(n <= limit, `page size ${limit} requested, ${n} interns returned`, res);
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
      for (const limit of [501, 1000]) {
        const res = await ctx.api.listInterns(internsQuery(ctx.target, { limit }));
        if (res.status !== 200) continue;
        const n = internPage(ctx, res).interns.length;
        ctx.conform(n <= 500, `page size ${limit} answered ${n} interns, more than the maximum of 500`, res);
      }
    },
  },
  {
    id: 'interns.limit.spelling',
    title: 'What page sizes 1e2, 2.0, +5, 05 and an empty one get (the spelling of an integer is left open)',
    operation: 'listInterns',
    kind: 'observation',
    requirements: ['general.integer-spelling'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      // 4.3 gives the type "integer", not how a query string spells one (readings limit-number-spellings, limit-empty-default).
      const seen: Record<string, number> = {};
      for (const v of ['1e2', '2.0', '+5', '05', '']) seen[`${ctx.target.interns.params!.limit}=${v}`] = (await ctx.api.listInterns(internsQuery(ctx.target, { limit: v }))).status;
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
      const { interns } = await plainInternPage(ctx);
      const counts: Record<string, number> = {};
      for (const intern of interns) if ((INTERN_STATES as readonly string[]).includes(String(intern.status))) tally(counts, String(intern.status));
      const seen = Object.keys(counts).sort((a, b) => (counts[a] ?? 0) - (counts[b] ?? 0) || a.localeCompare(b));
      const first = seen[0];
      if (first === undefined) return ctx.skip('the key lists no intern in a section 3 state: no status to filter on');
      const second = seen[1] ?? INTERN_STATES.find((s) => s !== first)!;
      // 4.3: "Lifecycle statuses to include | Comma-separated list of values from section 3".
      for (const wanted of [[first], [first, second]]) {
        const value = wanted.join(',');
        const res = await ctx.api.listInterns(internsQuery(ctx.target, { status: value }));
        expectStatus(res, 200, 'interns.status.filter', `status filter ${JSON.stringify(value)}`);
        for (const [i, intern] of internPage(ctx, res).interns.entries()) {
          ctx.conform(wanted.includes(String(intern.status)), `status filter ${JSON.stringify(value)}: /data/${i} has status ${JSON.stringify(intern.status)}`, res);
        }
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
      await expectEachInvalid(ctx, 'interns.status.invalid-rejected', 'status', ['RUNNING', 'running,', 'running,,failed']);
    },
  },
  {
    id: 'interns.workspace.filter',
    title: 'The workspace filter set to the key\'s workspace lists only that workspace',
    operation: 'listInterns',
    requirements: ['interns.workspace.filter'],
    needs: needsInternsParams,
    async probe(ctx: ProbeContext) {
      await confirmInternsParams(ctx);
      const own = ctx.target.interns.workspaceId;
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { workspace: own }));
      // 4.3: "Only interns of this workspace; it must match the workspace of the API key" — it does here.
      expectStatus(res, 200, 'interns.workspace.filter', 'workspace filter set to the key\'s own workspace');
      for (const [i, intern] of internPage(ctx, res).interns.entries()) {
        ctx.conform(sameUuid(intern.workspaceId, own), `workspace filter ${own}: /data/${i}/workspaceId is ${JSON.stringify(intern.workspaceId)}`, res);
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
      const res = await ctx.api.listInterns(internsQuery(ctx.target, { workspace: other }));
      // 4.3: "Only interns of this workspace; it must match the workspace of the API key" and "there is
      // no default-workspace fallback": a refusal (4xx with the 7.3 body) or an empty list (reading
      // workspace-mismatch-empty), never an intern, of the key's workspace or of the other one.
      if (res.status >= 200 && res.status < 300) {
        const data = internPage(ctx, res).interns;
        const ws = [...new Set(data.map((x) => String(x.workspaceId)))].slice(0, 3);
        ctx.conform(data.length === 0, `workspace filter ${other} (not the key's) answered HTTP ${res.status} listing ${data.length} interns${ws.length ? ` of workspace(s) ${ws.join(', ')}` : ''}`, res);
        return;
      }
      ctx.conform(res.status >= 400 && res.status < 500, `workspace filter ${other} (not the key's): expected a 4xx error or an empty list, got HTTP ${res.status}`, res);
      expectSchema(errorBody(res, 'interns.workspace.mismatch-no-fallback'), 'InternsError', 'interns.workspace.mismatch-no-fallback', res);
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
      ctx.conform(res.status >= 400 && res.status < 500, `workspace filter ${other} (not the key's): expected a 4xx error, got HTTP ${res.status}`, res);
      // 7.3: the refusal carries the interns error body.
      expectSchema(errorBody(res, 'interns.workspace.mismatch-refused'), 'InternsError', 'interns.workspace.mismatch-refused', res);
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
      ctx.conform(res.status >= 400 && res.status < 500, `workspace filter "not-a-uuid": expected a 4xx error, got HTTP ${res.status}`, res);
      expectSchema(errorBody(res, 'interns.workspace.malformed-refused'), 'InternsError', 'interns.workspace.malformed-refused', res);
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
  {
    id: 'interns.regional-host-refused',
    title: 'List interns sent to a regional host name is refused',
    operation: 'listInterns',
    requirements: ['interns.regional-host-refused'],
    needs: (t) => (t.interns.regionalBaseUrl ? undefined : 'interns.regionalBaseUrl is not set in the target file'),
    async probe(ctx: ProbeContext) {
      const regional = ctx.target.interns.regionalBaseUrl!;
      let res;
      try {
        res = await ctx.api.listInterns({}, 'key', regional);
      } catch (e) {
        // A 429/503 that outlasts the retries is still an answer that is not a 2xx: refused. A transport
        // error (no answer, unknown host) says nothing about refusal and stays an error.
        if (e instanceof CannotJudge && e.reason === 'rate-limited') {
          ctx.observe('interns.regional-host-refused', { status: e.exchanges[0]?.response?.status, note: 'refused with a retryable status' });
          return;
        }
        throw e;
      }
      // 4.3: "Requests sent to regional host names are refused": the status is not named, so anything
      // but a 2xx (an error, or a redirect that is not followed) is a refusal.
      ctx.conform(res.status < 200 || res.status >= 300, `GET /interns on the regional base URL answered HTTP ${res.status}`, res);
      ctx.observe('interns.regional-host-refused', { status: res.status, ...(res.headers['location'] ? { location: res.headers['location'] } : {}) });
    },
  },
  {
    id: 'interns.intern.nullable-types',
    title: 'Types seen for attached_vault_id, instructions, lastFailureMessage and progress',
    operation: 'listInterns',
    kind: 'observation',
    requirements: ['interns.intern.nullable-types'],
    async probe(ctx: ProbeContext) {
      const { interns } = await someInterns(ctx);
      // 2.5: "Types of attached_vault_id, instructions, lastFailureMessage and progress when they are not null: not shown".
      const seen: Record<string, unknown> = { interns: interns.length };
      for (const field of ['attached_vault_id', 'instructions', 'lastFailureMessage', 'progress']) {
        const types: Record<string, number> = {};
        const examples: Record<string, unknown> = {};
        for (const intern of interns) {
          const t = jsonType(intern, field);
          tally(types, t);
          if (!(t in examples) && t !== 'null' && t !== 'absent') examples[t] = brief(intern[field]);
        }
        seen[field] = { types, examples };
      }
      ctx.observe('interns.intern.nullable-types', seen);
    },
  },
  {
    id: 'interns.limit.default',
    title: 'The page size without the page-size parameter',
    operation: 'listInterns',
    kind: 'observation',
    requirements: ['interns.limit.default'],
    async probe(ctx: ProbeContext) {
      const { body } = await plainInternPage(ctx);
      const n = (body.data as unknown[]).length;
      // 8 rule 2: "Default page size of list interns: not shown". With has_more false the count is
      // only a lower bound of the default (the key has no more interns).
      ctx.observe('interns.limit.default', { 'data.length': n, has_more: body.has_more, ...(body.has_more === true ? { defaultPageSize: n } : { atLeast: n }) });
    },
  },
  {
    id: 'interns.params.names',
    title: 'The names of the three query parameters, as the target file gives them',
    operation: 'listInterns',
    kind: 'observation',
    requirements: ['interns.params.names'],
    async probe(ctx: ProbeContext) {
      // 4.3: "Names of these three query parameters: not shown" — the target file names them.
      ctx.observe('interns.params.names', ctx.target.interns.params ?? 'not set in the target file: the checks that send a parameter are skipped');
    },
  },
  {
    id: 'interns.pagination.next-page',
    title: 'What a page with has_more offers to fetch the next one',
    operation: 'listInterns',
    kind: 'observation',
    requirements: ['interns.pagination.next-page'],
    async probe(ctx: ProbeContext) {
      // A page size of 1 (when its name is known) makes has_more true whenever the key has two interns.
      const query = ctx.target.interns.params ? internsQuery(ctx.target, { limit: 1 }) : {};
      const { res, body } = await plainInternPage(ctx, query);
      // 4.3: "How to fetch the page after one with has_more true: not shown" — show every body field
      // beyond data/has_more and every header that looks like a cursor or a link.
      const beyond = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'data' && k !== 'has_more').slice(0, CAP).map(([k, v]) => [k, brief(v)]));
      const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => /cursor|link|next|page|continuation/i.test(k)).map(([k, v]) => [k, brief(v)]));
      ctx.observe('interns.pagination.next-page', {
        request: ctx.target.interns.params ? 'page size 1' : 'no parameter (names not set)',
        has_more: body.has_more,
        'data.length': (body.data as unknown[]).length,
        fieldsBeyondDataAndHasMore: beyond,
        ...(Object.keys(headers).length ? { headers } : {}),
      });
    },
  },
  {
    id: 'interns.timeout.length',
    title: 'The 408 responses list interns gave in this run',
    operation: 'listInterns',
    kind: 'observation',
    requirements: ['interns.timeout.length'],
    wholeRun: true,
    async probe({ log, observe }) {
      // 8 rule 4: "A 408 response exists for list interns; the length of the time-out: not shown".
      // No request: the run's request log is read (what the checks run so far saw). Only the 408s go
      // into the report: request counts and timings depend on scheduling and would make two runs with
      // one seed differ. The time a 408 took to come is the closest the client sees of the time-out.
      const timedOut = log.filter((e) => /\/interns(\?|$)/.test(e.url) && e.status === 408);
      observe('interns.timeout.length', {
        responses408: timedOut.length,
        ...(timedOut.length ? { msBefore408: timedOut.slice(0, CAP).map((e) => e.ms) } : {}),
      });
    },
  },
]);
