/**
 * Strict reading of a response body as JSON text (RFC 8259).
 *
 * RFC 8259 section 8.1: JSON exchanged between systems "MUST be encoded using UTF-8". A lenient
 * decoder (Buffer#toString) silently turns invalid bytes into U+FFFD and the body looks fine; here
 * the bytes are decoded strictly and the offset of the first invalid sequence is kept, so the JSON
 * requirement can fail with a cause a developer can find in a hex dump.
 *
 * RFC 8259 section 4: object names "SHOULD be unique"; with duplicates "the behavior of software
 * that receives such an object is unpredictable". The service document says nothing about them, so
 * the first duplicate is reported for observation, never as a failure (rule "Verdicts in both directions").
 */

export interface DecodedJsonBody {
  /**
   * The body as text. Strictly decoded when it is valid UTF-8; otherwise decoded leniently (invalid
   * sequences become U+FFFD) so that evidence can still show it.
   */
  text: string;
  /**
   * The parsed body. Parsed from the lenient text when the bytes are not valid UTF-8, so the rules
   * that do not depend on those bytes can still be judged: the encoding is judged on its own
   * (invalidUtf8Offset), not by hiding the body from every other rule.
   */
  json?: unknown;
  /** Why the text is not JSON (`empty body`, or JSON.parse's message); undefined when it parsed. */
  jsonError?: string;
  /** Byte offset of the first invalid UTF-8 sequence (RFC 3629 section 4), when there is one. */
  invalidUtf8Offset?: number;
  /** JSON Pointer of the first member whose name repeats an earlier name of the same object (e.g. `/data/3/id`). */
  duplicateKey?: string;
}

/**
 * Section 1 "exchanges JSON", 4.1 "media type application/json": the type and subtype compared
 * case-insensitively, parameters such as charset=utf-8 allowed (RFC 9110 section 8.3.1).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * Freezes a parsed body and every object and array in it, iteratively (a body nested as deep as the
 * reading limits allow does not reach the call stack's): checks in flight share one parsed body, so
 * none may change what another reads, and the run's memory hands out the same one again. Returns how
 * many member names its objects hold (each one's own keys), for decodeJsonBody's duplicate rule.
 */
function freezeCountingNames(value: unknown): number {
  let names = 0;
  const stack: object[] = [];
  if (typeof value === 'object' && value !== null) stack.push(value);
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (Object.isFrozen(v)) continue;
    Object.freeze(v);
    // Indexed and for-in, not Object.values: no array made per object. A parsed object's prototype is
    // Object.prototype, which has no enumerable key: for-in reads its own names only, each once.
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child: unknown = v[i];
        if (typeof child === 'object' && child !== null) stack.push(child);
      }
      continue;
    }
    const members = v as Record<string, unknown>;
    for (const name in members) {
      names++;
      const child = members[name];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return names;
}

/** What the strict reading adds to a response beyond its text and parsed body (carried on ApiResponse / SeenResponse). */
export type JsonBodyFacts = Pick<DecodedJsonBody, 'invalidUtf8Offset' | 'duplicateKey'>;

// ignoreBOM: a byte order mark stays in the text, so JSON.parse refuses it (RFC 8259
// section 8.1: a BOM MUST NOT be added; parsers MAY ignore it, this one reports it as not JSON).
const STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes `buf` as strict UTF-8, parses it as JSON (the parsed body frozen) and finds the
 * first duplicate object name, from the bytes exactly as sent (nothing rewrites them before they are
 * judged; evidence is masked where it is made, core/http/exchange.ts). `duplicateKeyOf` is
 * firstDuplicateKey or a memo of it, asked only of a body that has a duplicate: JSON.parse keeps one
 * key per name, so the parsed objects hold fewer names than the text's members (its `:` outside
 * strings, counted by the reading limits' pass) exactly when some object names one twice.
 */
export function decodeJsonBody(
  buf: Uint8Array,
  duplicateKeyOf: (text: string) => string | undefined = firstDuplicateKey,
): DecodedJsonBody {
  let text: string;
  let invalidUtf8Offset: number | undefined;
  try {
    text = STRICT.decode(buf);
  } catch {
    invalidUtf8Offset = firstInvalidUtf8(buf) ?? 0;
    text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8');
  }
  const out: DecodedJsonBody = { text, ...(invalidUtf8Offset !== undefined ? { invalidUtf8Offset } : {}) };
  if (text.length === 0) return { ...out, jsonError: 'empty body' };
  const read = readingScan(text);
  if (typeof read === 'string') return { ...out, jsonError: read };
  try {
    out.json = JSON.parse(text);
  } catch (e) {
    return { ...out, jsonError: (e as Error).message };
  }
  if (freezeCountingNames(out.json) === read.members) return out;
  const duplicateKey = duplicateKeyOf(text);
  return duplicateKey === undefined ? out : { ...out, duplicateKey };
}

/**
 * How deep and how large a body the suite parses (RFC 8259 section 9: "An implementation may set
 * limits on the size of texts that it accepts ... on the maximum depth of nesting"). The service's
 * bodies are at most five levels deep and a page holds at most a few hundred values; a body past
 * either limit is not parsed, and its reason is the body's jsonError, which the JSON rule reports
 * as a finding. Parsing it would cost the run hundreds of megabytes per response (100,000 nested
 * arrays in 200 KB, a million `{}` in 3 MB) and every rule read of it would cost as much again.
 */
export const MAX_JSON_DEPTH = 512;
export const MAX_JSON_VALUES = 50_000;

/**
 * Why `text` is past the reading limits (nested deeper than MAX_JSON_DEPTH, or more than
 * MAX_JSON_VALUES values and members), else how many `:` it holds outside strings (an object member
 * each, in JSON). One linear pass that skips strings; what is not JSON at all is left to JSON.parse.
 */
function readingScan(text: string): string | { members: number } {
  let depth = 0;
  let values = 1;
  let members = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i);
    } else if (c === 0x3a /* : */) {
      members++;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > MAX_JSON_DEPTH)
        return `nested deeper than ${MAX_JSON_DEPTH} levels, not read (RFC 8259 section 9 lets a reader limit nesting; the service's bodies are a few levels deep)`;
      values++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
    else if (c === 0x2c /* , */ && ++values > MAX_JSON_VALUES) {
      return `more than ${MAX_JSON_VALUES} values, not read (RFC 8259 section 9 lets a reader limit the size of texts; a page of the service holds a few hundred)`;
    }
  }
  return { members };
}

/**
 * Where the string whose opening quote is at `i` ends: the next quote not escaped (preceded by an even
 * number of backslashes), or the text's length when none is. Most of a body is inside strings, which
 * the engine's own scan (indexOf) skips; each backslash is read back once, by the quote after its
 * run, so the whole is linear.
 */
function stringEnd(text: string, i: number): number {
  for (let j = i; ; ) {
    j = text.indexOf('"', j + 1);
    if (j < 0) return text.length;
    let k = j - 1;
    while (k > i && text.charCodeAt(k) === 0x5c /* \ */) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
}

/**
 * Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629 section 4:
 * no overlong forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF, no truncated sequence),
 * or undefined when every sequence is well formed.
 */
export function firstInvalidUtf8(buf: Uint8Array): number | undefined {
  const n = buf.length;
  let i = 0;
  while (i < n) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte: how many continuation bytes follow, and the allowed range of the first of them.
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0; // overlong below U+0800
      if (b === 0xed) hi = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90; // overlong below U+10000
      if (b === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i; // 0x80..0xC1 (continuation or overlong lead) and 0xF5..0xFF never start a sequence
    for (let k = 1; k <= need; k++) {
      const c = buf[i + k];
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (c === undefined || c < min || c > max) return i;
    }
    i += need + 1;
  }
  return undefined;
}

interface ObjectFrame {
  kind: 'object';
  /** The names read so far: a list while short (most objects of a page have a dozen), a set beyond. */
  names: string[] | Set<string>;
  /** True between `{` or `,` and the next member name. */
  expectName: boolean;
  /** The name of the member whose value is being read. */
  name: string;
}
interface ArrayFrame {
  kind: 'array';
  index: number;
}

/** RFC 6901 escaping of one reference token. */
function token(s: string): string {
  return s.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * JSON Pointer of the first member whose name (after unescaping, so "a" and "\u0061" are the same
 * name) already occurs in its object, or undefined. `text` must be valid JSON (JSON.parse accepted
 * it): the scanner trusts its structure and only tracks containers, names and string boundaries.
 * One pass with an explicit stack: linear in the text and safe for any nesting depth. The pointer
 * is spelled only for the duplicate found, from the open containers (each one's member name or
 * index does not change while a value inside it is read).
 */
export function firstDuplicateKey(text: string): string | undefined {
  const stack: Array<ObjectFrame | ArrayFrame> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      stack.push({ kind: 'object', names: [], expectName: true, name: '' });
    } else if (c === 0x5b /* [ */) {
      stack.push({ kind: 'array', index: 0 });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectName = true;
      else if (top?.kind === 'array') top.index++;
    } else if (c === 0x22 /* " */) {
      const j = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectName) {
        const raw = text.slice(i + 1, j);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (hasName(top, name)) return pointerTo(stack, name);
        top.name = name;
        top.expectName = false;
      }
      i = j;
    }
  }
  return undefined;
}

/** Whether the object already has `name`; adds it if not. Linear in its names while they are few. */
function hasName(frame: ObjectFrame, name: string): boolean {
  const names = frame.names;
  if (names instanceof Set) {
    if (names.has(name)) return true;
    names.add(name);
    return false;
  }
  if (names.includes(name)) return true;
  if (names.length < SHORT_NAME_LIST) names.push(name);
  else frame.names = new Set([...names, name]);
  return false;
}

const SHORT_NAME_LIST = 16;

/** The pointer of member `name` of the innermost open container, through the names and indexes of those around it. */
function pointerTo(stack: ReadonlyArray<ObjectFrame | ArrayFrame>, name: string): string {
  let pointer = '';
  for (let k = 0; k < stack.length - 1; k++) {
    const frame = stack[k]!;
    pointer += frame.kind === 'object' ? `/${token(frame.name)}` : `/${frame.index}`;
  }
  return `${pointer}/${token(name)}`;
}
