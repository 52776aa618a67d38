import { CannotJudge } from '../check/errors.ts';
import { excerpt } from '../check/evidence.ts';
import type { Target } from '../target/target.ts';
import type { Mask } from '../text/mask.ts';

/**
 * The longest URL the suite sends. RFC 9110 4.1 recommends that recipients support 8000 octets; a
 * value the target hands back (a cursor of megabytes) would otherwise be sent, masked, logged and
 * judged again with every request that carries it. Longer is not sent: the check cannot be judged.
 */
export const MAX_URL_CHARS = 64 * 1024;

export function refuseLongUrl(url: URL, mask: Mask): void {
  const length = url.href.length;
  if (length <= MAX_URL_CHARS) return;
  throw unsendable(url, [...url.searchParams.keys()], `${length}`, mask);
}

/**
 * The same refusal before the query is encoded into the URL: encoding never shortens a value, so a
 * query whose characters alone are over the bound is refused without a pass that writes megabytes of
 * percent-escapes first (a cursor of megabytes, handed back by the target).
 */
export function refuseLongQuery(url: URL, query: Record<string, unknown>, mask: Mask): void {
  let length = url.href.length;
  const names: string[] = [];
  for (const [k, v] of Object.entries(query))
    if (v !== undefined) {
      length += k.length + String(v).length + 2;
      names.push(k);
    }
  if (length <= MAX_URL_CHARS) return;
  throw unsendable(url, names, `at least ${length}`, mask);
}

function unsendable(url: URL, names: readonly string[], length: string, mask: Mask): CannotJudge {
  const shown = [...new Set(names)].map((k) => excerpt(mask.text(k), 100)).join(', ');
  return new CannotJudge(
    'unsendable',
    `GET ${excerpt(mask.text(url.pathname), 200)}: the URL would be ${length} characters long (query parameters ${shown}: a value the target sent, such as a cursor?), over the ${MAX_URL_CHARS} the suite sends; not sent (RFC 9110 4.1 recommends 8000 octets)`,
  );
}

/**
 * The URL of a documented path under one of the target's base URLs, or a suite error. A path
 * parameter `.` or `..` would be resolved away by URL parsing and the request would leave the
 * documented path (rule "Hostile input"): refused, as is any base URL the target file does not name.
 */
export function documentedUrl(
  target: Pick<Target, 'baseUrl' | 'interns'>,
  path: string,
  baseUrl: string,
  mask: Mask,
): URL {
  const base = baseUrl.replace(/\/+$/, '');
  const allowed = [target.baseUrl, target.interns.regionalBaseUrl]
    .filter((b): b is string => !!b)
    .map((b) => b.replace(/\/+$/, ''));
  if (!allowed.includes(base))
    throw new Error(`the client refuses ${mask.text(base)}: it is not a base URL of the target file`);
  const url = new URL(base + path);
  if (url.pathname !== new URL(base).pathname.replace(/\/$/, '') + path) {
    throw new Error(
      `the client refuses GET ${mask.text(base + path)}: a path parameter would leave the documented path (${url.pathname})`,
    );
  }
  return url;
}
