import type { RequirementId } from '../../spec/requirement-ids.ts';
/**
 * Every 200 page of list interns the run receives, whichever check fetched it, judged by what one
 * page obeys on its own (rule "Judge every response"): 8 "Page size 1 to 500" whatever was asked, the default page
 * included; 2.6 "Newest first" within the page; and
 * with the management key, 4.3 "The API key selects the caller, the workspace and the visible
 * interns": every intern listed is of the key's workspace (the target file's interns.workspaceId).
 * The page size asked is not judged here: its parameter's name is the target file's (4.3 "Names of
 * these three query parameters: not shown"), and a name the server does not know is the file's
 * mistake, which the interns checks name as such (interns.limit.respected is theirs).
 */
import type { Finding, ResponseJudge, RunNote, SeenResponse } from '../../core/check/judge.ts';
import type { InternPageNote } from '../support/intern-prefixes.ts';
import { arrayAt } from './records.ts';
import { isObject, shown } from '../support/values.ts';

const MAX_PAGE = 500;

/** Every rule of one interns page that it breaks, each once (its first violation): a page broken two ways fails both. */
export function internPageViolations(
  response: Pick<SeenResponse, 'json' | 'interns'>,
): Array<{ requirementId: RequirementId; message: string; position?: number }> {
  const found: Array<{ requirementId: RequirementId; message: string; position?: number }> = [];
  const data = arrayAt(response.json, 'data');
  if (data.length > MAX_PAGE)
    found.push({
      requirementId: 'interns.limit.maximum',
      message: `page holds ${data.length} interns, more than 500 (8 "Page size 1 to 500")`,
    });
  let previous: number | undefined;
  for (const [i, intern] of data.entries()) {
    const at = isObject(intern) && typeof intern.createdAt === 'string' ? Date.parse(intern.createdAt) : NaN;
    // An unreadable createdAt is interns.intern.timestamps' (the record judge), not an order.
    if (Number.isNaN(at)) continue;
    if (previous !== undefined && at > previous) {
      found.push({
        requirementId: 'interns.order.newest-first',
        message: `data[${i}].createdAt ${shown((intern as { createdAt: string }).createdAt)} is newer than the intern listed before it (2.6 "Newest first")`,
        position: i,
      });
      break;
    }
    previous = at;
  }
  const workspace = response.interns?.keyWorkspace;
  const foreign =
    workspace === undefined
      ? undefined
      : keyWorkspaceViolation(response.json, workspace, !response.interns?.filterNamed);
  if (foreign) found.push(foreign);
  return found;
}

/** Said where a whole page is of one other workspace and nothing could tell a typo from a fault. */
export const TYPO_HINT =
  'every intern listed is of that one workspace: if interns.workspaceId is a typo, fix the target file';

/**
 * The workspace of an intern when it is another than the key's (UUIDs compared case-insensitively,
 * RFC 9562 section 4), else undefined. A missing or non-string workspaceId is not judged here: 2.5's
 * fields fail it (interns.intern.fields-present, interns.intern.field-types), one rule, one requirement.
 */
export function foreignWorkspace(intern: unknown, keyWorkspace: string): string | undefined {
  const ws = isObject(intern) ? intern.workspaceId : undefined;
  return typeof ws === 'string' && ws.toLowerCase() !== keyWorkspace.toLowerCase() ? ws : undefined;
}

/**
 * 4.3 "The API key selects the caller, the workspace and the visible interns; there is no
 * default-workspace fallback" (5 rule 4), said of the intern at `index`. `hint`: the target file does
 * not name the workspace filter (interns.params), so nothing could ask the server which workspace the
 * key is of: when the whole page is of one other workspace, the failure says a typo in
 * interns.workspaceId looks the same (the verdict stays: a server listing another single workspace
 * breaks 4.3 just as well).
 */
export function foreignWorkspaceMessage(
  json: unknown,
  index: number,
  workspace: string,
  keyWorkspace: string,
  hint: boolean,
): string {
  const typo = hint && soleOtherWorkspace(json, keyWorkspace) !== undefined ? `; ${TYPO_HINT}` : '';
  return `/data/${index}/workspaceId ${shown(workspace)} is not the key's workspace ${keyWorkspace} (4.3 "The API key selects the caller, the workspace and the visible interns")${typo}`;
}

/** The first intern of a page listed to the management key that is of another workspace than the key's. */
export function keyWorkspaceViolation(
  json: unknown,
  keyWorkspace: string,
  hint = false,
): { requirementId: RequirementId; message: string; position: number } | undefined {
  for (const [i, intern] of arrayAt(json, 'data').entries()) {
    const ws = foreignWorkspace(intern, keyWorkspace);
    if (ws !== undefined)
      return {
        requirementId: 'interns.intern.workspace-of-key',
        message: foreignWorkspaceMessage(json, i, ws, keyWorkspace, hint),
        position: i,
      };
  }
  return undefined;
}

/**
 * The workspace W when every intern of a list is of one same workspace W that is not `keyWorkspace`
 * (at least one intern, each with a string workspaceId), else undefined: what a typo in the target
 * file's interns.workspaceId looks like, and also what a server listing another workspace's interns
 * looks like (fault interns-other-workspace-leak). Telling them apart takes the filtered list (cli/preflight.ts).
 */
export function soleOtherWorkspace(json: unknown, keyWorkspace: string): string | undefined {
  const data = arrayAt(json, 'data');
  const first = data[0];
  const ws = isObject(first) ? first.workspaceId : undefined;
  if (typeof ws !== 'string' || ws.toLowerCase() === keyWorkspace.toLowerCase()) return undefined;
  const same = data.every(
    (intern) =>
      isObject(intern) &&
      typeof intern.workspaceId === 'string' &&
      intern.workspaceId.toLowerCase() === ws.toLowerCase(),
  );
  return same ? ws : undefined;
}

/**
 * What the run keeps of an interns page for the whole-run comparison of page sizes
 * (suites/support/intern-prefixes.ts): the query, the ids and createdAt instants, for a 200 page asked
 * with the management key at the target's base URL. Interns without a string id are left out.
 */
export function internPageNote(response: SeenResponse): RunNote | undefined {
  if (response.operation !== 'listInterns' || response.status !== 200 || response.auth !== 'key' || response.regional)
    return undefined;
  if (!isObject(response.json) || !Array.isArray(response.json.data)) return undefined;
  const interns = response.json.data.filter(
    (i): i is Record<string, unknown> => isObject(i) && typeof i.id === 'string',
  );
  const value: InternPageNote = {
    query: response.query,
    ids: interns.map((i) => (i.id as string).toLowerCase()),
    at: interns.map((i) => {
      const at = typeof i.createdAt === 'string' ? Date.parse(i.createdAt) : NaN;
      return Number.isNaN(at) ? null : at;
    }),
    ...(typeof response.json.has_more === 'boolean' ? { hasMore: response.json.has_more } : {}),
  };
  const key = JSON.stringify(Object.entries(response.query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { key, value, chars: value.ids.reduce((n, id) => n + id.length + 16, 0) };
}

export const internPagesJudge: ResponseJudge = {
  id: 'interns.pages',
  requirements: ['interns.limit.maximum', 'interns.order.newest-first', 'interns.intern.workspace-of-key'],
  judge(response): Finding[] {
    if (response.operation !== 'listInterns' || response.status !== 200) return [];
    return internPageViolations(response).map((broken) => ({
      requirementId: broken.requirementId,
      message: broken.message,
      exchange: response.exchange,
      ...(broken.position !== undefined ? { position: broken.position } : {}),
      dedupeKey: `${broken.requirementId}:page`,
    }));
  },
  note: internPageNote,
};
