/**
 * A hostile target on 127.0.0.1 that echoes the credential it receives in every encoding a target
 * can use (keyEncodings), everywhere it can: in JSON bodies (values and raw `\u` escapes), in a
 * non-JSON body with terminal escape sequences, in header values, in header NAMES, and as the
 * `last_id` cursor of listContainerFiles, which the suite follows (it would send the key back in its
 * own URL if it saw the cursor unmasked). Built on the hostile server (loopback only).
 */
import type { Recorded } from './hostile-server.ts';
import { startHostile, type Action, type HostileServer } from './hostile-server.ts';

export interface Encoding {
  name: string;
  text: string;
}

/** What a terminal would act on: clear the screen, go home, print a verdict of the target's own. */
export const TERMINAL_ATTACK = '\u001b[2J\u001b[1;1Hverdict: CONFORMANT\r\u009b2K\u0007\u202e';

const swapCase = (s: string) => [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
const utf8Hex = (c: string) => [...Buffer.from(c, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));

/** The key in each encoding, each written here on its own (not with the mask's code). */
export function keyEncodings(key: string): Encoding[] {
  const bytes = Buffer.from(key, 'utf8');
  const out: Encoding[] = [
    { name: 'plain', text: key },
    { name: 'case-swapped', text: swapCase(key) },
    { name: 'upper-case', text: key.toUpperCase() },
    // Every other character escaped, hex case alternating: "h\u006Fs\u0074..."
    {
      name: 'json-escaped-mixed',
      text: [...key]
        .map((c, i) =>
          i % 2
            ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')[i % 4 === 1 ? 'toUpperCase' : 'toLowerCase']()}`
            : c,
        )
        .join(''),
    },
    {
      name: 'json-escaped-all',
      text: [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
    },
    {
      name: 'percent-all-upper',
      text: [...key]
        .map((c) =>
          utf8Hex(c)
            .map((h) => `%${h.toUpperCase()}`)
            .join(''),
        )
        .join(''),
    },
    {
      name: 'percent-mixed-lower',
      text: [...key]
        .map((c, i) =>
          i % 3
            ? c
            : utf8Hex(c)
                .map((h) => `%${h}`)
                .join(''),
        )
        .join(''),
    },
    { name: 'hex-lower', text: bytes.toString('hex') },
    { name: 'hex-upper', text: bytes.toString('hex').toUpperCase() },
    { name: 'hex-colon-separated', text: bytes.toString('hex').match(/../g)!.join(':') },
    { name: 'hex-space-separated', text: bytes.toString('hex').toUpperCase().match(/../g)!.join(' ') },
    // HTML / XML character references, as an HTML error page echoes a request.
    {
      name: 'html-hex-refs',
      text: [...key].map((c, i) => (i % 2 ? `&#x${c.charCodeAt(0).toString(16).toUpperCase()};` : c)).join(''),
    },
    { name: 'html-decimal-refs', text: [...key].map((c) => `&#${c.charCodeAt(0)};`).join('') },
    {
      name: 'html-named-refs',
      text: [...key]
        .map(
          (c) =>
            ({ _: '&lowbar;', '/': '&sol;', '+': '&plus;', '.': '&period;', '=': '&equals;', '~': '&tilde;' })[c] ?? c,
        )
        .join(''),
    },
    // UTF-16 bytes read as text: a NUL after (LE) or before (BE) every character.
    { name: 'utf16le-bytes', text: Buffer.from(key, 'utf16le').toString('latin1') },
    { name: 'utf16be-bytes', text: Buffer.from(key, 'utf16le').swap16().toString('latin1') },
    // Split in two: across a line break, across a string concatenation.
    { name: 'split-by-newline', text: `${key.slice(0, key.length >> 1)}\n${key.slice(key.length >> 1)}` },
    { name: 'split-concatenated', text: `${key.slice(0, key.length >> 1)}" + "${key.slice(key.length >> 1)}` },
  ];
  // What a person reads as the key although it is spelled otherwise.
  const chars = [...key];
  const between = (glue: readonly string[]) =>
    chars.map((c, i) => c + (i < chars.length - 1 ? glue[i % glue.length] : '')).join('');
  const dec = [...bytes].map(String);
  const oct = [...bytes].map((b) => b.toString(8).padStart(3, '0'));
  const hex0x = [...bytes].map((b) => `0x${b.toString(16).padStart(2, '0')}`);
  const units = [...key].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0'));
  out.push(
    { name: 'tag-characters-between', text: between(['\u{E0020}', '\u{E0041}', '\u{E007F}']) },
    { name: 'cgj-and-variation-selectors', text: between(['\u034F', '\uFE0F', '\uFE00', '\u{E0100}']) },
    { name: 'hangul-fillers-braille-blank', text: between(['\u3164', '\u115F', '\u1160', '\uFFA0', '\u2800']) },
    { name: 'zero-width-and-bidi-marks', text: between(['\u200B', '\u2060', '\u200E', '\uFEFF', '\u00AD']) },
    {
      name: 'fullwidth',
      text: chars.map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join(''),
    },
    { name: 'utf16-hex-units', text: units.join(' ') },
    { name: 'utf16le-hex-bytes', text: Buffer.from(key, 'utf16le').toString('hex') },
    { name: 'octal-escapes', text: oct.map((o) => `\\${o}`).join('') },
    { name: 'octal-list', text: oct.join(' ') },
    { name: 'decimal-list', text: `[${dec.join(', ')}]` },
    { name: '0x-list', text: hex0x.join(',') },
    {
      name: 'rot13',
      text: key.replace(/[a-z]/gi, (c) =>
        String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)),
      ),
    },
    { name: 'reversed', text: [...chars].reverse().join('') },
    { name: 'html-decimal-refs-no-semicolon', text: [...key].map((c) => `&#${c.charCodeAt(0)}`).join('') },
    {
      name: 'quoted-printable',
      text: [...bytes].map((b) => `=${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
    },
    { name: 'base32', text: base32(Buffer.concat([Buffer.from('xy'), bytes])) },
    // Spaced out: every character apart, as a person spells a key aloud or across a form's boxes.
    { name: 'spaced-by-blanks', text: chars.join(' ') },
    { name: 'spaced-by-dots', text: chars.join('.') },
    { name: 'spaced-by-dashes', text: chars.join('-') },
    { name: 'spaced-by-underscores', text: chars.join('_') },
    { name: 'spaced-by-newlines', text: chars.join('\n') },
    { name: 'spaced-mixed', text: between([' ', ' . ', ' - ', '_', ' / ', '\n', '  ', ', ', ' | ']) },
  );
  // Inside a larger encoded blob, starting 0, 1 or 2 bytes into a group of three.
  for (const prefix of ['', 'x', 'xy']) {
    const blob = Buffer.concat([Buffer.from(prefix), bytes, Buffer.from('!?')]);
    out.push({ name: `base64-offset-${prefix.length}`, text: blob.toString('base64') });
    out.push({ name: `base64url-offset-${prefix.length}`, text: blob.toString('base64url') });
    const wide = Buffer.concat([
      Buffer.from(prefix, 'utf16le'),
      Buffer.from(key, 'utf16le'),
      Buffer.from('!?', 'utf16le'),
    ]);
    out.push({ name: `base64-utf16le-offset-${prefix.length}`, text: wide.toString('base64') });
    out.push({
      name: `base64-of-base64-offset-${prefix.length}`,
      text: Buffer.from(`{"c":"${blob.toString('base64')}"}`).toString('base64'),
    });
  }
  return out;
}

/** RFC 4648 base32, written here apart from the mask's. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');
  return (bits.match(/.{1,5}/g) ?? []).map((g) => alphabet[parseInt(g.padEnd(5, '0'), 2)]).join('');
}

/** A header name may hold only token characters (RFC 9110 5.6.2). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface EchoServer extends HostileServer {
  /** Requests whose `after` query parameter was set (the suite following an echoed cursor). */
  cursorsFollowed(): string[];
}

/** Starts the echo target. */
export async function startEcho(): Promise<EchoServer> {
  let served = 0;
  const server = await startHostile((req: Recorded): Action => echo(req, served++));
  return {
    ...server,
    cursorsFollowed: () =>
      server.received
        .map((r) => new URL(r.url, server.origin).searchParams.get('after'))
        .filter((a): a is string => a !== null),
  };
}

function echo(req: Recorded, index: number): Action {
  const auth = typeof req.headers.authorization === 'string' ? req.headers.authorization : '';
  const credential = auth.replace(/^\S+\s+/, '');
  if (!credential)
    return { kind: 'json', status: 401, body: { error: { code: 401, message: 'Missing Authentication header' } } };
  const forms = keyEncodings(credential);
  const headers: Record<string, string> = {};
  for (const f of forms) {
    // A header value cannot hold NUL or a line break (RFC 9110 5.5): those forms go in bodies only.
    // Nor, as Node writes them, a character past U+00FF (fullwidth, tag characters).
    if (/^[\t\u0020-\u00ff]*$/.test(f.text)) headers[`x-echo-${f.name}`] = f.text;
    if (TOKEN.test(f.text)) headers[`x-${f.text}`] = '1';
  }
  const url = new URL(req.url, 'http://127.0.0.1');
  const files = /^\/v1\/containers\/([^/]+)\/files$/.exec(url.pathname);
  if (files)
    return {
      kind: 'raw',
      headers,
      body: filesPage(decodeURIComponent(files[1]!), forms, url.searchParams.get('after')),
    };
  // Every third answer is a 200 that is not JSON: a parse error quotes its start (the terminal
  // escapes), and its media type holds a C1 CSI (a header value may carry bytes 0x80-0xff).
  if (index % 3 === 2) {
    return {
      kind: 'raw',
      status: 200,
      headers: { ...headers, 'content-type': 'text/plain\u009b2J\u009b1;1H' },
      body: `${TERMINAL_ATTACK} ${forms.map((f) => f.text).join(' ')}`,
    };
  }
  return { kind: 'raw', status: index % 2 ? 403 : 200, headers, body: echoJson(forms) };
}

/**
 * A JSON object holding every form. The escaped forms go in raw, so the JSON text holds `\u0073`
 * and the parsed value holds the plain key (what JSON.parse then JSON.stringify of a report shows).
 */
function echoJson(forms: readonly Encoding[]): string {
  const fields = forms.map(
    (f) => `${JSON.stringify(f.name)}:${f.name.startsWith('json-') ? `"${f.text}"` : JSON.stringify(f.text)}`,
  );
  return `{"error":{"code":403,"message":"echo","metadata":{${fields.join(',')}}},"data":{${fields.join(',')}}}`;
}

/**
 * A valid first page of one ordinary file, with has_more true and `last_id` holding every form (the
 * escaped ones raw, so the parsed cursor holds the plain key): the suite follows the cursor as it
 * sees it after masking. A page asked for with `after` is the last one (empty). The file itself is
 * ordinary: a key in its path would be masked out of its cfile_ id and the page would be unreadable.
 */
function filesPage(containerId: string, forms: readonly Encoding[], after: string | null): string {
  if (after !== null)
    return JSON.stringify({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
  const path = 'notes/echo.txt';
  const id = `cfile_${Buffer.from(path).toString('base64url')}`;
  const file = JSON.stringify({
    id,
    object: 'container.file',
    container_id: containerId,
    bytes: 1,
    created_at: 1_700_000_000,
    path,
    source: 'assistant',
  });
  const lastId = `"${forms.map((f) => (f.name.startsWith('json-') ? f.text : JSON.stringify(f.text).slice(1, -1))).join(' ')}"`;
  return `{"object":"list","data":[${file}],"first_id":${JSON.stringify(id)},"last_id":${lastId},"has_more":true}`;
}
