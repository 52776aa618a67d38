/**
 * Container file ids (service document 2.1): the literal prefix `cfile_` followed by the
 * base64url encoding (RFC 4648 section 5) of the file path's UTF-8 bytes.
 */

export const FILE_ID_PREFIX = 'cfile_';

/** Builds the id of a path. `padded` keeps the `=` padding (RFC 4648 section 5 leaves it to the user). */
export function fileId(path: string, { padded }: { padded: boolean }): string {
  const b64 = Buffer.from(path, 'utf8').toString('base64url'); // Node omits padding for base64url
  return FILE_ID_PREFIX + (padded ? b64 + '='.repeat((4 - (b64.length % 4)) % 4) : b64);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The path an id names, or null when the string is not a container file id. Strict on purpose
 * (4.1 `after` is "any container file id", so anything else is malformed input -> 400):
 * - prefix `cfile_` and a non-empty payload of the URL-safe alphabet only (`+` and `/` of the
 *   standard alphabet are rejected);
 * - padding optional either way, but when present it must be the exact amount;
 * - canonical encoding only (no stray bits in the last character, no impossible length);
 * - the bytes must be valid UTF-8 and the path non-empty.
 */
export function pathFromFileId(id: string): string | null {
  if (!id.startsWith(FILE_ID_PREFIX)) return null;
  const payload = id.slice(FILE_ID_PREFIX.length);
  const m = /^([A-Za-z0-9_-]*)(={0,2})$/.exec(payload);
  if (!m) return null;
  const body = m[1] ?? '';
  const pad = m[2] ?? '';
  if (body.length === 0 || body.length % 4 === 1) return null;
  if (pad.length > 0 && (body.length + pad.length) % 4 !== 0) return null;
  const bytes = Buffer.from(body, 'base64url');
  if (bytes.toString('base64url') !== body) return null; // non-canonical trailing bits
  let path: string;
  try {
    path = UTF8.decode(bytes);
  } catch {
    return null;
  }
  return path.length > 0 ? path : null;
}

/** Byte-wise order of UTF-8 encodings (4.1 "lexicographic path order"); not localeCompare, not UTF-16 order. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
