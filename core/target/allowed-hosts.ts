/**
 * The hosts a run may send its keys to. A target file is untrusted input ("Hostile input": in CI it
 * comes from the repository, which more people can change than can read the job's secrets): a
 * `baseUrl` naming a host its author controls would receive the management key with every request.
 * So a key goes only to loopback (the embedded reference, a server started beside the suite) or to a
 * host the user named outside the target file: `--allow-host HOST[:PORT]` on the command line, or
 * CONFORMANCE_ALLOW_HOSTS (comma-separated) in the environment, where a CI workflow states it. The
 * target file never allows its own hosts.
 */
import { isIP } from 'node:net';
import { terminalSafe } from '../text/terminal-text.ts';

/** The environment variable that names allowed hosts, comma-separated, as --allow-host does. */
export const ALLOW_HOSTS_ENV = 'CONFORMANCE_ALLOW_HOSTS';

/** An allowed host is a name of at most 253 characters and a port: anything longer is no host. */
const MAX_ENTRY_CHARS = 300;
/** A list longer than this is not a list of hosts a run talks to. */
const MAX_ENTRIES = 64;

/** Why an allowed host is not one, to follow the option's or variable's name in a message. */
export class AllowedHostError extends Error {
  override readonly name = 'AllowedHostError';
}

export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * `HOST` or `HOST:PORT` as the URL parser writes a host (lower case, punycode, IPv6 in brackets), or
 * an AllowedHostError. A URL (`https://host/`), a path, credentials or a wildcard is refused: the
 * entry must name exactly the host the user means.
 */
export function normalisedHost(entry: string): string {
  const shown = JSON.stringify(terminalSafe(entry.length > 60 ? `${entry.slice(0, 60)}…` : entry));
  const bad = (why: string) =>
    new AllowedHostError(`takes HOST or HOST:PORT (e.g. api.example.com or api.example.com:8443), got ${shown}${why}`);
  if (entry.length === 0 || entry.length > MAX_ENTRY_CHARS) throw bad('');
  if (entry.includes('://')) throw bad(': give the host alone, without a scheme');
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^:/?#@[\]\s\\]+)(?::(\d{1,5}))?$/.exec(entry);
  if (!m) throw bad('');
  let hostname: string;
  try {
    hostname = new URL(`http://${m[1]}/`).hostname;
  } catch {
    throw bad('');
  }
  // A name after the URL parser's own normalisation: letters, digits, dots and dashes (no wildcard).
  if (!hostname.startsWith('[') && !/^[a-z0-9.-]+$/.test(hostname)) throw bad('');
  const port = m[2];
  if (port === undefined) return hostname;
  if (Number(port) < 1 || Number(port) > 65_535) throw bad(': the port is 1 to 65535');
  return `${hostname}:${Number(port)}`;
}

/** A comma-separated list of hosts (blank entries ignored), each normalised; duplicates once. */
export function hostList(text: string): string[] {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length > MAX_ENTRIES) throw new AllowedHostError(`takes at most ${MAX_ENTRIES} hosts`);
  return [...new Set(entries.map(normalisedHost))];
}

/** The hosts CONFORMANCE_ALLOW_HOSTS names, or an AllowedHostError whose message names the variable. */
export function hostsOfEnvironment(env: NodeJS.ProcessEnv): string[] {
  const text = env[ALLOW_HOSTS_ENV];
  if (text === undefined) return [];
  try {
    return hostList(text);
  } catch (e) {
    if (e instanceof AllowedHostError) throw new AllowedHostError(`${ALLOW_HOSTS_ENV} ${e.message}`);
    throw e;
  }
}

/** A base URL's port as it is used: the scheme's default when the URL names none. */
function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** Whether the keys may go to `url`'s host: loopback, or an allowed `HOST` (any port) or `HOST:PORT`. */
export function keysMayGoTo(url: URL, allowed: readonly string[]): boolean {
  if (isLoopback(url.hostname)) return true;
  return allowed.includes(url.hostname) || allowed.includes(`${url.hostname}:${portOf(url)}`);
}

/**
 * The base URLs of a target file whose host the user did not allow, each with its field, as one
 * line's end: the host and how to allow it, never the URL (it may hold more than a host). Undefined
 * when every one is allowed.
 */
export function refusedKeyHosts(
  baseUrls: ReadonlyArray<{ field: string; url: string }>,
  allowed: readonly string[],
): string | undefined {
  const refused = baseUrls
    .map(({ field, url }) => ({ field, url: new URL(url) }))
    .filter(({ url }) => !keysMayGoTo(url, allowed));
  if (refused.length === 0) return undefined;
  const hosts = [...new Set(refused.map(({ url }) => url.hostname))];
  const named = refused.map(({ field, url }) => `${field} names host ${terminalSafe(url.hostname)}`).join(', ');
  return `${named}, which the keys may be sent to only if you allow it outside the target file: pass ${hosts
    .map((h) => `--allow-host ${terminalSafe(h)}`)
    .join(' ')} or set ${ALLOW_HOSTS_ENV}=${terminalSafe(hosts.join(','))}`;
}

/** The hosts (host[:port], as in the URL) the run's keys go to: one per base URL, in the file's order. */
export function keyHostsOf(baseUrls: readonly string[]): string[] {
  return [...new Set(baseUrls.map((u) => new URL(u).host))];
}
