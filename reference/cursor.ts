/**
 * How listContainerFiles reads `after` (4.1) and names a scan position (4.1 rule 3), under the reading
 * switches of reference/variants.ts. The default is the strict codec of ids.ts; each switch is another
 * faithful reading of words that do not say how strictly a cursor is read (2.1, 7.1 "malformed input").
 */
import { fileId, FILE_ID_PREFIX, pathFromFileId } from './ids.ts';
import type { ReferenceOptions } from './options.ts';
import { hasReading } from './variants.ts';

/** Prefix of the opaque scan-position tokens of reading scan-cursor-opaque (never a container file id). */
const SCAN_PREFIX = 'cscan_';
/** C0 controls and DEL: reading cursor-control-refused holds that no file has such a path. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The path `after` names, or null when it is malformed input (400). */
export function readCursor(opts: Pick<ReferenceOptions, 'readings'>, id: string): string | null {
  const path = decode(opts, id);
  if (path !== null && hasReading(opts, 'cursor-control-refused') && CONTROL.test(path)) return null;
  // Reading cursor-absolute-refused: no container file has a path beginning with "/" (2.1 "relative").
  if (path !== null && hasReading(opts, 'cursor-absolute-refused') && path.startsWith('/')) return null;
  return path;
}

function decode(opts: Pick<ReferenceOptions, 'readings'>, id: string): string | null {
  // A scan position handed out by this server: resumes strictly after the hidden object it names.
  if (hasReading(opts, 'scan-cursor-opaque') && id.startsWith(SCAN_PREFIX))
    return pathFromFileId(FILE_ID_PREFIX + id.slice(SCAN_PREFIX.length));
  // Reading scan-cursor-bare-base64: a scan position is the bare base64url of the path it names, so
  // any value without the prefix that decodes is one of this server's scan positions.
  if (hasReading(opts, 'scan-cursor-bare-base64') && !id.startsWith(FILE_ID_PREFIX))
    return pathFromFileId(FILE_ID_PREFIX + id);
  if (!id.startsWith(FILE_ID_PREFIX)) return null; // 2.1: the literal prefix, under every reading
  const payload = id.slice(FILE_ID_PREFIX.length);
  // RFC 4648 section 3.2: padding is the default unless the referring document says otherwise.
  if (hasReading(opts, 'cursor-padding-required') && payload.length % 4 !== 0) return null;
  if (hasReading(opts, 'cursor-lenient-base64')) {
    // Node's decoder: skips what it cannot read, accepts both alphabets and any length.
    const path = Buffer.from(payload, 'base64url').toString('utf8');
    return path.length > 0 ? path : null;
  }
  // Python's urlsafe_b64decode maps "-_" to "+/" and then reads the standard alphabet, so "+" and "/" pass too.
  if (hasReading(opts, 'cursor-standard-alphabet'))
    return pathFromFileId(FILE_ID_PREFIX + payload.replaceAll('+', '-').replaceAll('/', '_'));
  return pathFromFileId(id);
}

/** True when ids are written with "=" padding (option paddedIds, or reading cursor-padding-required). */
export function padsIds(opts: Pick<ReferenceOptions, 'paddedIds' | 'readings'>): boolean {
  return opts.paddedIds || hasReading(opts, 'cursor-padding-required');
}

/** The opaque last_id of a page that ends at the scan bound on the hidden object at `path` (reading scan-cursor-opaque). */
export function opaqueScanCursor(path: string, opts?: Pick<ReferenceOptions, 'readings'>): string {
  if (opts && hasReading(opts, 'scan-cursor-bare-base64'))
    return fileId(path, { padded: false }).slice(FILE_ID_PREFIX.length);
  return SCAN_PREFIX + fileId(path, { padded: false }).slice(FILE_ID_PREFIX.length);
}
