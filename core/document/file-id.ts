// 2.1: a container file id is `cfile_` + base64url(path). The suite's own codec, written apart from the
// reference's, so that one shared mistake cannot make the reference and the suite agree.

import { recentMemo, shortKeyMemo } from '../text/text-memo.ts';

export const FILE_ID_PREFIX = 'cfile_';

/** base64url (RFC 4648 section 5) of the UTF-8 path, without padding unless asked. */
export function encodeFileId(path: string, padded = false): string {
  const b64 = Buffer.from(path, 'utf8').toString('base64url');
  return FILE_ID_PREFIX + (padded ? b64 + '='.repeat((4 - (b64.length % 4)) % 4) : b64);
}

export type DecodedFileId = { ok: true; path: string; padded: boolean } | { ok: false; reason: string };

const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Ids up to this long are remembered by the thousands; a longer one (a cursor of megabytes) only while it comes in turn. */
const SHORT_ID_CHARS = 1024;

const decodeShort = shortKeyMemo((id) => Object.freeze(decodeUnfrozen(id)), 4096, SHORT_ID_CHARS);
const decodeLong = recentMemo((id) => Object.freeze(decodeUnfrozen(id)), 2);

/**
 * Decodes strictly: prefix, URL-safe alphabet, canonical length, valid UTF-8. The result is frozen
 * and may be shared: a run reads the same ids again and again (a page judged by every rule, asked by
 * several checks, each id compared with a cursor), and a decode is three passes over the id, so up to
 * 4,096 ids of up to 1,024 characters are remembered, and the last two longer ones.
 */
export function decodeFileId(id: string): DecodedFileId {
  return id.length <= SHORT_ID_CHARS ? decodeShort(id) : decodeLong(id);
}

function decodeUnfrozen(id: string): DecodedFileId {
  if (!id.startsWith(FILE_ID_PREFIX)) return { ok: false, reason: `does not start with ${FILE_ID_PREFIX}` };
  const body = id.slice(FILE_ID_PREFIX.length);
  if (/[+/]/.test(body)) return { ok: false, reason: 'uses the standard base64 alphabet (+ or /), not base64url' };
  if (!URL_SAFE.test(body)) return { ok: false, reason: 'has characters outside the base64url alphabet' };
  const bare = body.replace(/=+$/, '');
  const padded = bare.length !== body.length;
  if (bare.length % 4 === 1) return { ok: false, reason: 'has an impossible base64 length' };
  if (padded && body.length % 4 !== 0) return { ok: false, reason: 'has wrong padding' };
  const bytes = Buffer.from(bare, 'base64url');
  // Non-canonical trailing bits would decode to the same bytes: require the canonical form.
  if (bytes.toString('base64url') !== bare) return { ok: false, reason: 'is not canonical base64url' };
  let path: string;
  try {
    path = STRICT_UTF8.decode(bytes);
  } catch {
    return { ok: false, reason: 'does not decode to UTF-8' };
  }
  return { ok: true, path, padded };
}

/** 2.2/4.1: lexicographic path order, read as the order of UTF-8 bytes (= code point order). */
export function comparePaths(a: string, b: string): number {
  return compareUnits(a, b, codePointRank);
}

/**
 * Two strings compared at their first differing UTF-16 code unit, each unit ranked by `rank` (a
 * shorter prefix first), without encoding or splitting either: the path orders are ranks of units.
 */
export function compareUnits(a: string, b: string, rank: (unit: number) => number): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** Code point order (the order of UTF-8 bytes) from UTF-16 units: surrogates (astral code points) above U+E000..U+FFFF. */
export function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}
