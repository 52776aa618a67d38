/** Section 5: bearer API keys; 401 for a missing/invalid key, 403 for a valid key lacking permission. */
import type { Operation } from './operations.ts';
import { WORKSPACE_A } from './data.ts';
import { DEFAULT_REFERENCE_OPTIONS, type ReferenceOptions } from './options.ts';
import { hasFault } from './faults/index.ts';
import { hasReading } from './variants.ts';

export type KeyKind = 'management' | 'restricted';

export interface Caller {
  kind: KeyKind;
  /** 4.3: the key determines the caller's workspace (no default-workspace fallback). */
  workspaceId: string;
}

const MANAGEMENT: Caller = { kind: 'management', workspaceId: WORKSPACE_A };
const RESTRICTED: Caller = { kind: 'restricted', workspaceId: WORKSPACE_A };

/** The caller a key names, or undefined. */
function callerOf(key: string, keys: ReferenceOptions['keys']): Caller | undefined {
  if (key === keys.management) return MANAGEMENT;
  if (key === keys.restricted) return RESTRICTED;
  return undefined;
}

/**
 * The caller named by an Authorization header value, or null (-> 401).
 * 5 rule 1 shows `Bearer <API_KEY>`. The auth-scheme is matched case-insensitively (RFC 7235
 * section 2.1 / RFC 9110 section 11.1), so `bearer <key>` is accepted; one or more spaces may
 * separate scheme and token (RFC 7235 `1*SP`). A missing header, an empty token (`Bearer `),
 * another scheme (`Basic`, `Token`) or an unknown key is unauthenticated.
 */
export function authenticate(
  header: string | undefined,
  opts: Pick<ReferenceOptions, 'faults' | 'readings' | 'keys'> = {
    faults: [],
    readings: [],
    keys: DEFAULT_REFERENCE_OPTIONS.keys,
  },
): Caller | null {
  if (header === undefined) return hasFault(opts, 'auth-missing-key-accepted') ? MANAGEMENT : null;
  // Reading auth-basic-accepted: the key is neither missing nor invalid (5 rule 2), whatever the scheme.
  if (hasFault(opts, 'auth-basic-scheme-accepted') || hasReading(opts, 'auth-basic-accepted')) {
    const basic = basicCaller(header, opts.keys);
    if (basic) return basic;
  }
  const m = /^([A-Za-z]+) +(\S+)$/.exec(header);
  // Reading bearer-case-sensitive: the scheme exactly as 5 rule 1 writes it.
  if (!m || (hasReading(opts, 'bearer-case-sensitive') ? m[1] !== 'Bearer' : m[1]?.toLowerCase() !== 'bearer'))
    return null;
  if (hasFault(opts, 'auth-invalid-key-accepted')) return callerOf(m[2] ?? '', opts.keys) ?? MANAGEMENT;
  if (hasFault(opts, 'auth-key-prefix-accepted') && (m[2] ?? '').startsWith(opts.keys.management)) return MANAGEMENT;
  return callerOf(m[2] ?? '', opts.keys) ?? null;
}

/** Fault auth-basic-scheme-accepted and reading auth-basic-accepted: `Basic base64(user:password)` where user or password is a known key. */
function basicCaller(header: string, keys: ReferenceOptions['keys']): Caller | null {
  const m = /^basic +(\S+)$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  for (const part of [decoded, ...decoded.split(':')]) {
    const caller = callerOf(part, keys);
    if (caller) return caller;
  }
  return null;
}

/**
 * 5 rule 3. Which key kind each operation needs is not shown: the management key may call all
 * three; the restricted key is valid but refused (403) unless the operation is listed in
 * options.restrictedKeyAcceptedBy.
 */
export function permitted(caller: Caller, op: Operation, opts: ReferenceOptions): boolean {
  return caller.kind === 'management' || opts.restrictedKeyAcceptedBy.includes(op);
}
