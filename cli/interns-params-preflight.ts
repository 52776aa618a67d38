import type { ApiResponse, Client, Query } from '../core/http/client.ts';
import { CannotJudge } from '../core/check/errors.ts';
import type { Target } from '../core/target/target.ts';
import { INTERN_STATES } from '../suites/support/interns.ts';
import { internsQuery } from '../suites/support/interns-query.ts';
import { isObject } from '../suites/support/values.ts';
import { shown } from './args.ts';

/** A status value no section-3 state is: a server that knows the status parameter refuses it (7.3 invalid_body). */
const NOT_A_STATUS = 'not_a_section_3_status';

/**
 * 4.3 "Names of these three query parameters: not shown": the target file names them
 * (interns.params), and a server that ignores parameters it never heard of answers a misspelt name as
 * if it were not there: `limit: limt` made every page-size check fail ("50 interns for a page size of
 * 1"), a failure of the file blamed on the server. Each name is told apart by asking with and without
 * it. One request asks a page size of 1 and a status X that the newest intern listed is not in: a
 * server honouring both lists at most one intern, none of another status than X. Only when it lists
 * more (page size suspect) or an intern of another status (status suspect) is the name asked again
 * alone, with a value 4.3 does not allow (page size 0, a status that is no section-3 state): a server
 * that knows the name refuses it or answers otherwise (a limit it does not enforce is still
 * validated); one that answers exactly the list asked without it has never heard of the name. A
 * faithful server is never suspected, and a key that sees no intern tells nothing: then nothing is said.
 */
export async function ignoredInternsParams(
  target: Target,
  client: Client,
  plainRes: ApiResponse | undefined,
): Promise<string[]> {
  const names = target.interns.params;
  const plain = plainRes ? internsOf(plainRes) : undefined;
  if (!names || !plain || plain.length === 0) return [];
  const plainIds = idsOf(plain);
  const limitName = bounded(names.limit);
  const statusName = bounded(names.status);
  const first = String(plain[0]!.status);
  const status = otherStatus(plain, first);
  const both = await ask(client, internsQuery(target, { limit: 1, status }));
  const listed = both ? internsOf(both) : undefined;
  if (!listed) return [];
  const problems: string[] = [];
  const asIfAbsent = async (query: Query) => {
    const res = await ask(client, query);
    const list = res ? internsOf(res) : undefined;
    return list !== undefined && idsOf(list) === plainIds;
  };
  const [limitIgnored, statusIgnored] = await Promise.all([
    listed.length > 1 && asIfAbsent(internsQuery(target, { limit: 0 })),
    listed.some((i) => i.status !== status) && asIfAbsent(internsQuery(target, { status: NOT_A_STATUS })),
  ]);
  if (limitIgnored)
    problems.push(
      `interns.params.limit ${shown(names.limit)} seems unknown to the target: ${limitName}=1 listed ${listed.length} interns and ${limitName}=0 was answered as if it were not there (4.3: the names are "not shown"; the target file names them). Check the target file`,
    );
  if (statusIgnored)
    problems.push(
      `interns.params.status ${shown(names.status)} seems unknown to the target: ${statusName}=${status} listed an intern of status ${shown(first)} and ${statusName}=${NOT_A_STATUS} was answered as if it were not there (4.3: the names are "not shown"; the target file names them). Check the target file`,
    );
  return problems;
}

/** The most frequent section-3 state among the listed interns other than `first`'s (the most a page size can show), else another one. */
function otherStatus(plain: ReadonlyArray<Record<string, unknown>>, first: string): string {
  const others = INTERN_STATES.filter((s) => s !== first);
  const count = (s: string) => plain.filter((i) => i.status === s).length;
  return others.reduce((best, s) => (count(s) > count(best) ? s : best), others[0]!);
}

/** The answer, or undefined when there is none to read (a time-out: nothing concluded). */
async function ask(client: Client, query: Query): Promise<ApiResponse | undefined> {
  try {
    return await client.listInterns(query);
  } catch (e) {
    if (e instanceof CannotJudge) return undefined;
    throw e;
  }
}

/** A name of the target file as the message quotes it again: at most 60 characters (the line stays one line). */
function bounded(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}

function internsOf(res: ApiResponse): Array<Record<string, unknown>> | undefined {
  if (res.status !== 200 || !isObject(res.json) || !Array.isArray(res.json.data)) return undefined;
  return res.json.data.filter(isObject);
}

function idsOf(list: ReadonlyArray<Record<string, unknown>>): string {
  return JSON.stringify(list.map((i) => i.id));
}
