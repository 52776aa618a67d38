/**
 * Finds a key in a text in any encoding a target can echo it, by decoding rather than by encoding:
 * written apart from the mask (core/text/mask.ts), so a form the mask misses is not missed here as well.
 *
 * - the key in any case;
 * - after undoing percent-encoding (`%25` repeated too), `\uXXXX`, `\xXX` and `\/` escapes, in any
 *   mix and any order, in any case;
 * - inside every run of hex digits, decoded at both nibble offsets;
 * - inside every run of base64 / base64url characters, decoded at each of the four character offsets
 *   (one of them lines up with the original groups of three bytes, wherever the key started), and
 *   in what that decodes to (base64 of base64);
 * - with what does not show removed (tag characters, variation selectors, CGJ, Hangul fillers,
 *   braille blank, zero-width and bidi marks, soft hyphen) and compatibility forms folded (NFKC);
 * - reversed, in rot13, quoted-printable, octal escapes, `&#NN` without `;`, in base32 runs, in
 *   lists of decimal, octal or 0x bytes, and in hex of UTF-16 (NULs dropped).
 */

export interface Finding {
  key: string;
  /** How the key was found: `plain`, `escaped`, `hex`, `base64`, `base64url`. */
  how: string;
  /** A few characters around it, with the key itself elided, for the failure message. */
  around: string;
}

/**
 * Every way `keys` appear in `text` (empty when none does). Each decoding of the text is made once
 * and searched for every key: what a key is found as depends on that key alone.
 */
export function findKeys(text: string, keys: readonly string[], depth = 0): Finding[] {
  const out: Finding[] = [];
  if (keys.length === 0) return out;
  const seen = new Set<string>();
  const note = (key: string, how: string, where: string, at: number) => {
    const around = where.slice(Math.max(0, at - 30), at + 30).replaceAll(key, '<KEY>');
    if (!seen.has(key + how + around)) out.push({ key, how, around });
    seen.add(key + how + around);
  };
  const lowerKeys = keys.map((key) => key.toLowerCase());
  const visible = foldUnseen(text);
  const unescaped = foldUnseen(unescapeAll(visible, false));
  const quotedPrintable = foldUnseen(unescapeAll(visible, true));
  const plainForms: Array<[string, string]> = [
    ['plain', text],
    ['unseen', visible],
    ['escaped', unescaped],
    ['quoted-printable', quotedPrintable],
  ];
  const lowered = plainForms.map(([, form]) => form.toLowerCase());
  keys.forEach((key, i) => {
    // The first of these forms that holds the key, as it reads there.
    const form = lowered.findIndex((lower) => lower.includes(lowerKeys[i]!));
    if (form >= 0) note(key, plainForms[form]![0], plainForms[form]![1], lowered[form]!.indexOf(lowerKeys[i]!));
  });
  // A key spaced out (separators between its characters), as a person still reads it.
  const joined = [...new Set([text, visible, unescaped])].map((source) =>
    unspaced(source.replace(/\\+[nrt]/g, ' ').toLowerCase()),
  );
  keys.forEach((key, i) => {
    const spacedKey = unspaced(lowerKeys[i]!);
    if (spacedKey.length < 8) return;
    for (const j of joined) if (j.includes(spacedKey)) note(key, 'spaced', j, j.indexOf(spacedKey));
  });
  const innerTexts: Array<{ source: string; how: string; run: string; decoded: string; decodedLower: string }> = [];
  for (const source of new Set([text, visible, unescaped, quotedPrintable])) {
    const lower = source.toLowerCase();
    /**
     * One decoding of `source` (lower case), searched for every key; `run` is the part of the source it
     * decodes, looked for only when a key is found (a search per run would read the source once per run).
     */
    const search = (how: string, decoded: string, run?: string) => {
      keys.forEach((key, i) => {
        if (decoded.includes(lowerKeys[i]!)) note(key, how, source, run === undefined ? 0 : source.indexOf(run));
      });
    };
    // Reversed and rot13: the key turned, looked for in the source as it reads (each turn is its own
    // inverse, character by character), rather than the whole source turned once per source.
    keys.forEach((key, i) => {
      if (lower.includes(reverse(lowerKeys[i]!))) note(key, 'reversed', source, 0);
      if (lower.includes(rot13(lowerKeys[i]!))) note(key, 'rot13', source, 0);
    });
    // Hex, also with a separator between bytes (`73:6b:...`, `73 6B ...`); NULs dropped (UTF-16).
    for (const run of runsOf(source, /(?:[0-9a-f]{2}[:\- ,]?){4,}/gi)) {
      for (const offset of [0, 1]) {
        const decoded = Buffer.from(evenLength(run.replace(/[:\- ,]/g, '').slice(offset)), 'hex')
          .toString('latin1')
          .replaceAll('\u0000', '')
          .toLowerCase();
        search('hex', decoded, run);
      }
    }
    // Lists of byte values: decimal, octal, 0x.
    for (const [how, list, radix] of [
      ['decimal-list', /(?:\b\d{1,3}\b[,; ]{0,2}){4,}/g, 10],
      ['octal-list', /(?:\b[0-3][0-7]{2}\b[,; ]{0,2}){4,}/g, 8],
      ['octal-run', /(?:[0-3][0-7]{2}){4,}/g, 8],
      ['0x-list', /(?:0x[0-9a-f]{2}[,; ]{0,2}){4,}/gi, 16],
    ] as const) {
      for (const run of runsOf(source, list)) {
        const values = how === 'octal-run' ? run.match(/.../g)! : run.split(/[,; ]+/).filter(Boolean);
        const decoded = values
          .map((v) => String.fromCharCode(parseInt(v.replace(/^0x/i, ''), radix) & 0xff))
          .join('')
          .toLowerCase();
        search(how, decoded, run);
      }
    }
    for (const run of runsOf(source, /[A-Za-z2-7]{8,}/g)) {
      for (let offset = 0; offset < 8; offset++) search('base32', fromBase32(run.slice(offset)).toLowerCase(), run);
    }
    for (const [how, alphabet] of [
      ['base64', /[A-Za-z0-9+/]{8,}/g],
      ['base64url', /[A-Za-z0-9_-]{8,}/g],
    ] as const) {
      for (const run of runsOf(source, alphabet)) {
        for (let offset = 0; offset < 4; offset++) {
          // NULs dropped: the base64 of UTF-16 bytes decodes to the key with a NUL beside each character.
          const decoded = Buffer.from(run.slice(offset), how).toString('latin1').replaceAll('\u0000', '');
          const decodedLower = decoded.toLowerCase();
          search(how, decodedLower, run);
          if (depth === 0 && decoded.length >= 8) innerTexts.push({ source, how, run, decoded, decodedLower });
        }
      }
    }
  }
  // Base64 of base64: what each run decodes to, scanned once more for the keys it does not hold as it
  // reads. All of them are scanned first as one text, apart by a character that no decoding removes or
  // reads across (so a key found there is inside one of them), and one by one only for a key found.
  if (innerTexts.length === 0) return out;
  const maybe = new Set(
    findKeys([...new Set(innerTexts.map((t) => t.decoded))].join(APART), keys, 1).map((f) => f.key),
  );
  if (maybe.size === 0) return out;
  for (const { source, how, run, decoded, decodedLower } of innerTexts) {
    const hidden = keys.filter((key, i) => maybe.has(key) && !decodedLower.includes(lowerKeys[i]!));
    if (hidden.length === 0) continue;
    const inner = new Set(findKeys(decoded, hidden, 1).map((f) => f.key));
    for (const key of hidden) if (inner.has(key)) note(key, `${how} of base64`, source, source.indexOf(run));
  }
  return out;
}

/**
 * Between two decoded runs scanned as one text: a control character that no decoding above drops,
 * folds, joins to a neighbour or counts as a separator, so nothing is found across it.
 */
const APART = '\u0001';

/**
 * The runs of `source` that `pattern` matches, each once: a run read again decodes to what it did the
 * first time and is noted at its first place (`source.indexOf(run)`), so only its first reading can find
 * anything. A long recording repeats its ids and words thousands of times.
 */
function runsOf(source: string, pattern: RegExp): Set<string> {
  return new Set(source.match(pattern) ?? []);
}

/** The text with every separator a spaced-out key may carry removed (spaces, dots, dashes and the like). */
function unspaced(text: string): string {
  return text.replace(/[\s.,\-_/:|]+/g, '');
}

/** What does not show removed, compatibility forms folded: the text as a person reads it. */
function foldUnseen(text: string): string {
  return text
    .replace(
      // biome-ignore lint/suspicious/noMisleadingCharacterClass: U+034F (a combining mark) is listed alone, to be removed like the rest.
      /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u034F\uFE00-\uFE0F\u115F\u1160\u3164\uFFA0\u2800\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u180E\u202A-\u202E\u2066-\u2069]/gu,
      '',
    )
    .normalize('NFKC');
}

function reverse(s: string): string {
  return [...s].reverse().join('');
}

function rot13(s: string): string {
  return s.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 13) % 26) + 97));
}

/** Base32 (RFC 4648 section 6) of a run of its alphabet, each whole byte of it; the bits left over dropped. */
function fromBase32(run: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let count = 0;
  let out = '';
  for (const c of run.toUpperCase()) {
    bits = ((bits << 5) | alphabet.indexOf(c)) & 0x1fff;
    count += 5;
    if (count >= 8) {
      count -= 8;
      out += String.fromCharCode((bits >> count) & 0xff);
    }
  }
  return out;
}

/** Percent-encoding and backslash escapes undone until nothing changes (each can hide the other). */
function unescapeAll(text: string, quotedPrintable: boolean): string {
  let s = text;
  for (let round = 0; round < 8; round++) {
    let next = s
      .replace(/%25/gi, '%')
      .replace(/(?:%[0-9a-f]{2})+/gi, percentDecoded)
      .replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+x([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+([0-3][0-7]{2})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))
      .replace(/\\+\//g, '/')
      .replace(/&#x([0-9a-f]{1,6});?/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&#([0-9]{1,7});?/g, (_, d: string) => String.fromCharCode(Number(d)))
      .replace(
        /&(lowbar|sol|plus|period|equals|tilde|amp);/gi,
        (_, name: string) =>
          ({ lowbar: '_', sol: '/', plus: '+', period: '.', equals: '=', tilde: '~', amp: '&' })[name.toLowerCase()]!,
      )
      // UTF-16 bytes read as text, a line break or a string concatenation inside the key.
      .replace(/[\u0000\r\n]/g, '')
      .replace(/["']\s*\+\s*["']/g, '');
    if (quotedPrintable) next = next.replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (next === s) break;
    s = next;
  }
  return s;
}

/** A run of percent-encoded bytes: as UTF-8 when it is, else byte by byte. */
function percentDecoded(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

function evenLength(hex: string): string {
  return hex.length % 2 ? hex.slice(0, -1) : hex;
}
