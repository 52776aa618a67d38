import { BlockList, isIP } from 'node:net';

/**
 * The proxy the environment names for a target, as curl and npm read it: `https_proxy` / `HTTPS_PROXY`
 * for an https target, `http_proxy` / `HTTP_PROXY` for an http one (the lower-case name first), and
 * `no_proxy` / `NO_PROXY` for the hosts reached directly.
 *
 * One choice differs from curl: a loopback target (127.0.0.0/8, ::1, localhost) is never proxied, whatever
 * NO_PROXY says. A suite that starts its own loopback reference (the embedded default target, a CI job's
 * server) must not send it, and its keys, through a corporate proxy that cannot reach it anyway.
 */
export interface ProxyServer {
  /** `host:port` of the proxy: what the console and report.json say, never its credentials. */
  hostPort: string;
  hostname: string;
  port: number;
  /** `Basic …` built from the proxy URL's user and password, sent as Proxy-Authorization. */
  authorization?: string;
}

/** A proxy variable whose value is not a usable proxy URL: every request through it fails with this message. */
export interface UnusableProxy {
  unusable: string;
}

export type ProxyEnv = Record<string, string | undefined>;

function envValue(env: ProxyEnv, name: string): string | undefined {
  for (const n of [name.toLowerCase(), name.toUpperCase()]) {
    const v = env[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** The proxy variable that applies to a target of this protocol. */
function variableFor(protocol: string): string {
  return protocol === 'https:' ? 'https_proxy' : 'http_proxy';
}

/** A proxy URL read as curl reads it (no scheme means http://). Only an http:// proxy is spoken to. */
export function parseProxy(value: string, variable: string): ProxyServer | UnusableProxy {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return { unusable: `${variable} is not a URL` };
  }
  if (url.protocol !== 'http:') return { unusable: `${variable}: only an http:// proxy is supported` };
  const port = url.port ? Number(url.port) : 80;
  const hostPort = `${url.hostname}:${port}`;
  if (!url.username && !url.password) return { hostPort, hostname: unbracket(url.hostname), port };
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return {
    hostPort,
    hostname: unbracket(url.hostname),
    port,
    authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
  };
}

function unbracket(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Whether a host is loopback: 127.0.0.0/8, ::1, localhost (and names under .localhost, RFC 6761 6.3). */
export function isLoopback(hostname: string): boolean {
  const host = unbracket(hostname).toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Whether NO_PROXY sends this target directly, as curl matches it: entries separated by commas (or
 * spaces), `*` alone for every host, a name matching itself and every name under it (a leading dot or
 * not), an IP address or a CIDR block matching addresses, and an optional `:port` narrowing an entry to it.
 */
export function bypassesProxy(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = unbracket(url.hostname).toLowerCase().replace(/\.$/, '');
  const port = defaultPort(url);
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: number | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1]!;
      entryPort = bracketed[2] ? Number(bracketed[2]) : undefined;
    } else if (/^[^:]+:\d+$/.test(entry)) {
      const at = entry.lastIndexOf(':');
      entryPort = Number(entry.slice(at + 1));
      entry = entry.slice(0, at);
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    if (matchesEntry(host, entry.replace(/^\*?\./, '').replace(/\.$/, ''))) return true;
  }
  return false;
}

function matchesEntry(host: string, entry: string): boolean {
  if (!entry) return false;
  const slash = entry.indexOf('/');
  if (slash > 0) {
    const family = isIP(host);
    const base = entry.slice(0, slash);
    const bits = Number(entry.slice(slash + 1));
    if (!family || isIP(base) !== family || !Number.isInteger(bits)) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits < 0 || bits > (family === 4 ? 32 : 128)) return false;
    const block = new BlockList();
    block.addSubnet(base, bits, type);
    return block.check(host, type);
  }
  if (isIP(host) || isIP(entry)) return host === entry;
  return host === entry || host.endsWith(`.${entry}`);
}

/**
 * The proxy a request to `url` goes through, if any. `proxyLoopback` is the transport's internal switch
 * for the suite's own tests (which can only reach loopback): never set from the environment or the command line.
 */
export function proxyFor(url: URL, env: ProxyEnv, proxyLoopback = false): ProxyServer | UnusableProxy | undefined {
  const variable = variableFor(url.protocol);
  const value = envValue(env, variable);
  if (!value) return undefined;
  if (!proxyLoopback && isLoopback(url.hostname)) return undefined;
  if (bypassesProxy(url, envValue(env, 'no_proxy'))) return undefined;
  return parseProxy(value, variable.toUpperCase());
}

/** The `host:port` of the proxy a run's requests to `baseUrl` go through, for the console and report.json. */
export function proxyShownFor(baseUrl: string, env: ProxyEnv = process.env): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const proxy = proxyFor(url, env);
  return proxy && 'hostPort' in proxy ? proxy.hostPort : undefined;
}

/**
 * The secrets a proxy URL holds (its password, its user and password, the Proxy-Authorization token),
 * masked in every output like the keys: core/text/mask.ts secretsOf.
 */
export function proxySecrets(env: ProxyEnv = process.env): Array<{ value: string; placeholder: string }> {
  const out: Array<{ value: string; placeholder: string }> = [];
  for (const variable of ['https_proxy', 'http_proxy']) {
    const value = envValue(env, variable);
    if (!value) continue;
    const parsed = parseProxy(value, variable);
    if (!('authorization' in parsed) || !parsed.authorization) continue;
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    const placeholder = '$PROXY_CREDENTIALS';
    const token = parsed.authorization.slice('Basic '.length);
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    for (const v of [`${user}:${password}`, `${url.username}:${url.password}`, token, password, url.password])
      if (v && v !== ':' && !out.some((s) => s.value === v)) out.push({ value: v, placeholder });
  }
  return out;
}
