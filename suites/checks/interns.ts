import { defineChecks, type ProbeContext } from '../../core/check/check.ts';
import { CannotJudge } from '../../core/check/errors.ts';
import type { Query } from '../../core/http/client.ts';
import { expectStatus } from '../../core/check/expect.ts';
import {
  internPage,
  internsIn,
  noInternListed,
  plainInternPage,
  someInterns,
  widestInternsQuery,
} from '../support/interns.ts';
import { internsQuery } from '../support/interns-query.ts';
import { expectJsonBody } from '../support/json-media.ts';
import { brief, jsonType, shown, tally } from '../support/values.ts';
import { conformToSchema } from '../judges/response-schema.ts';
import { foreignWorkspace, foreignWorkspaceMessage } from '../judges/intern-pages.ts';
import { CAP } from '../support/interns-checks.ts';
import { internRecordChecks } from './interns-records.ts';

/** Pages the interns cursor walk follows at most (a bounded loop of requests). */
const CURSOR_PAGES = 8;

export const internsChecks = defineChecks([
  {
    id: 'interns.response.schema',
    title: 'The interns of the key come as an intern list of 2.6 made of interns of 2.5',
    operation: 'listInterns',
    requirements: [
      'interns.list.schema',
      'interns.intern.field-types',
      'interns.intern.fields-present',
      'interns.intern.schema',
      'general.json-body',
    ],
    async probe(ctx: ProbeContext) {
      const res = await ctx.api.listInterns();
      expectStatus(res, 200, 'interns.list.schema');
      // Section 1 "exchanges JSON" (4.3 names no media type: application/json is general.json-media-type's SHOULD).
      expectJsonBody(res, 'general.json-body');
      // 2.6: data (array) and has_more (boolean) are the list's; a violation inside data[n] is the
      // intern's: a field of the wrong type fails interns.intern.field-types, a missing one that is
      // never null interns.intern.fields-present (MUST), a missing nullable one interns.intern.schema
      // (SHOULD). UUID format, timestamp form, hostname and model shape and the status value are
      // requirements of their own (below).
      conformToSchema(ctx, 'listInterns', res);
      // The interns past the default page, as far as one request shows them (8 "Page size 1 to 500"):
      // the record rules of 2.5 hold for each (suites/support/interns.ts widestInternPage).
      const widestQuery = widestInternsQuery(ctx.target);
      let listed = internsIn(res);
      if (widestQuery) {
        const widest = await ctx.api.listInterns(widestQuery);
        // Another answer to a page size of 500 is interns.limit.accepted's.
        if (widest.status === 200) conformToSchema(ctx, 'listInterns', widest);
        if (widest.status === 200) listed += internsIn(widest);
      }
      // The list's shape is judged on any list; an intern's fields only on an intern.
      if (listed === 0)
        for (const id of [
          'interns.intern.field-types',
          'interns.intern.fields-present',
          'interns.intern.schema',
        ] as const)
          ctx.notJudged(id, noInternListed('no record to hold to 2.5'));
    },
  },
  ...internRecordChecks,
  {
    id: 'interns.intern.workspace-of-key',
    title: 'Every listed intern belongs to the workspace of the API key',
    operation: 'listInterns',
    requirements: ['interns.intern.workspace-of-key'],
    async probe(ctx: ProbeContext) {
      const { res, interns } = await someInterns(ctx);
      const own = ctx.target.interns.workspaceId;
      // 4.3, 5 rule 4. Without interns.params the preflight cannot ask the filtered list whether a page
      // all of one other workspace is a typo in the target file or a leak (cli/preflight.ts): the
      // failure says both. The rule is the whole-run judge's (suites/judges/intern-pages.ts).
      for (const [i, intern] of interns.entries()) {
        const ws = foreignWorkspace(intern, own);
        ctx.conform(
          ws === undefined,
          ctx.requirement,
          ws === undefined ? '' : foreignWorkspaceMessage(res.json, i, ws, own, !ctx.target.interns.params),
          res,
        );
      }
    },
  },
  {
    id: 'interns.pages.cursor-walk',
    title:
      "Following the interns cursor the target file names, each page lists interns of the key's workspace, newest first across pages",
    operation: 'listInterns',
    // The pages' own rules (the key's workspace, the order within a page, the records) are the
    // whole-run judges'; the walk adds the order across a page boundary.
    requirements: ['interns.intern.workspace-of-key', 'interns.order.newest-first'],
    estimatedRequests: CURSOR_PAGES,
    needs: (t) =>
      t.interns.cursorParam
        ? undefined
        : { field: 'interns.cursorParam', why: '4.3: how to fetch the page after one with has_more true is not shown' },
    async probe(ctx: ProbeContext) {
      // 4.3 "How to fetch the page after one with `has_more` true: not shown": the target file names a
      // parameter taking the previous page's last intern id. A server that does not follow it as
      // named (an error, a page listing an intern again) is the file's to check, not a failure.
      const param = ctx.target.interns.cursorParam!;
      const listed = new Set<string>();
      let last: { id: string; at: number; text: string } | undefined;
      for (let n = 0; n < CURSOR_PAGES; n++) {
        const res = await ctx.api.listInterns(last === undefined ? {} : { [param]: last.id });
        const where = last === undefined ? 'the first page' : `the page after ${param}=${last.id}`;
        if (res.status !== 200)
          return ctx.skip(
            `${where} answered HTTP ${res.status}${last === undefined ? '' : ': is interns.cursorParam the parameter the server reads?'}`,
          );
        const page = internPage(ctx, res);
        for (const [i, intern] of page.interns.entries()) {
          const id = typeof intern.id === 'string' ? intern.id.toLowerCase() : undefined;
          if (id !== undefined && listed.has(id))
            return ctx.skip(
              `${where} lists /data/${i} ${shown(intern.id)} again: the server does not read ${param} as the cursor`,
            );
          if (id !== undefined) listed.add(id);
        }
        // A walk over no intern judges nothing (rule "No green without evidence"): its own cause, said.
        if (last === undefined && page.interns.length === 0) return ctx.skip(noInternListed('no page to walk'));
        const first = page.interns[0];
        const firstAt = typeof first?.createdAt === 'string' ? Date.parse(first.createdAt) : NaN;
        // 2.6 "Newest first": the page after a page lists nothing newer than that page's last intern.
        if (last !== undefined && Number.isFinite(last.at) && Number.isFinite(firstAt)) {
          ctx.conform(
            firstAt <= last.at,
            'interns.order.newest-first',
            `${where}: /data/0/createdAt ${String(first!.createdAt)} is newer than the previous page's last intern (${last.text}): not newest first across pages`,
            res,
          );
        }
        const end = page.interns[page.interns.length - 1];
        if (page.body.has_more !== true || end === undefined) return;
        if (typeof end.id !== 'string')
          return ctx.skip(`${where} ends with an intern without a string id: no cursor to follow`);
        last = {
          id: end.id,
          at: typeof end.createdAt === 'string' ? Date.parse(end.createdAt) : NaN,
          text: String(end.createdAt),
        };
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
        ctx.conform(
          !prev || at <= prev.at,
          ctx.requirement,
          `/data/${i}/createdAt ${text} is newer than /data/${prev?.i}/createdAt ${prev?.text}: not newest first`,
          res,
        );
        prev = { i, at, text };
      }
    },
  },
  {
    id: 'interns.regional-host-refused',
    title: 'List interns sent to a regional host name is refused',
    operation: 'listInterns',
    requirements: ['interns.regional-host-refused'],
    needs: (t) => (t.interns.regionalBaseUrl ? undefined : { field: 'interns.regionalBaseUrl' }),
    async probe(ctx: ProbeContext) {
      const regional = ctx.target.interns.regionalBaseUrl!;
      // Bare, and with a query where the target file names the parameters: "Requests" are refused, not
      // only the request without one (a host rule that matched the bare path would pass the first alone).
      const queries: Query[] = [{}, ...(ctx.target.interns.params ? [internsQuery(ctx.target, { limit: 1 })] : [])];
      const seen: Array<{ query: string; status: number | undefined; location?: string; note?: string }> = [];
      for (const query of queries) {
        const shownQuery = new URLSearchParams(query as Record<string, string>).toString() || '(none)';
        let res;
        try {
          res = await ctx.api.listInterns(query, 'key', regional);
        } catch (e) {
          // A 429/503 that outlasts the retries is still an answer that is not a 2xx: refused. A transport
          // error (no answer, unknown host) says nothing about refusal and stays an error.
          if (e instanceof CannotJudge && e.reason === 'rate-limited') {
            seen.push({
              query: shownQuery,
              status: e.exchanges[0]?.response?.status,
              note: 'refused with a retryable status',
            });
            continue;
          }
          throw e;
        }
        // 4.3: "Requests sent to regional host names are refused": the status is not named, so anything
        // but a 2xx (an error, or a redirect that is not followed) is a refusal.
        ctx.conform(
          res.status < 200 || res.status >= 300,
          ctx.requirement,
          `GET /interns${query === queries[0] ? '' : ` with the query ${shownQuery}`} on the regional base URL answered HTTP ${res.status}`,
          res,
        );
        seen.push({
          query: shownQuery,
          status: res.status,
          ...(res.headers['location'] ? { location: res.headers['location'] } : {}),
        });
      }
      ctx.observe('interns.regional-host-refused', seen.length === 1 ? seen[0] : { requests: seen });
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
      ctx.observe('interns.limit.default', {
        'data.length': n,
        has_more: body.has_more,
        ...(body.has_more === true ? { defaultPageSize: n } : { atLeast: n }),
      });
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
      ctx.observe(
        'interns.params.names',
        ctx.target.interns.params ?? 'not set in the target file: the checks that send a parameter are skipped',
      );
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
      const beyond = Object.fromEntries(
        Object.entries(body)
          .filter(([k]) => k !== 'data' && k !== 'has_more')
          .slice(0, CAP)
          .map(([k, v]) => [k, brief(v)]),
      );
      const headers = Object.fromEntries(
        Object.entries(res.headers)
          .filter(([k]) => /cursor|link|next|page|continuation/i.test(k))
          .map(([k, v]) => [k, brief(v)]),
      );
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
      // Whether any came, not how many: which requests a target times out may follow their order,
      // and checks run together (--concurrency). The times, shortest first.
      observe('interns.timeout.length', {
        answered408: timedOut.length > 0,
        ...(timedOut.length
          ? {
              msBefore408: timedOut
                .map((e) => e.ms)
                .sort((a, b) => a - b)
                .slice(0, CAP),
            }
          : {}),
      });
    },
  },
]);
