/**
 * Encoded forms (base64, hex, lists, rot13, ...) shorter than this are not masked: a form of one to
 * three characters would mask ordinary text everywhere (the base64 of a 2-character key at an
 * alignment is 2 characters). From four on a form is as rare in ordinary text as a 2-character key
 * itself, whose plain form is masked anyway. So: hex of keys from 2 characters, base64 and base32 at
 * every alignment from 4 (base64 at alignment 0 from 3). The plain secret is always masked, whatever
 * its length.
 */
export const MIN_ENCODED_CHARS = 4;

/**
 * The forms of a secret to look for: itself and its encodings (see core/text/mask.ts); `whole`, for a
 * weak key, its encodings of the key alone instead of the parts found inside a larger encoding.
 */
export function formsOf(value: string, whole = false): string[] {
  const encoded: string[] = [];
  const utf8 = Buffer.from(value, 'utf8');
  const bytes = [...utf8];
  const hex = utf8.toString('hex');
  const pairs = hex.match(/../g) ?? [];
  encoded.push(hex, pairs.join(':'), pairs.join('-'), pairs.join(' '));
  const utf16le = Buffer.from(value, 'utf16le');
  const utf16be = Buffer.from(utf16le).swap16();
  // UTF-16 as hex: the bytes in either order, and the code units (`0073 006b`, `U+0073U+006B`).
  const units = utf16be.toString('hex').match(/..../g) ?? [];
  encoded.push(
    utf16le.toString('hex'),
    utf16be.toString('hex'),
    units.join(' '),
    units.join(','),
    units.map((u) => `u+${u}`).join(' '),
    units.map((u) => `u+${u}`).join(''),
  );
  // The bytes as lists: octal (also as one run of digits), decimal, 0x.
  const octal = bytes.map((b) => b.toString(8).padStart(3, '0'));
  const decimal = bytes.map(String);
  const hex0x = bytes.map((b) => `0x${b.toString(16).padStart(2, '0')}`);
  encoded.push(octal.join(''), hex0x.join(''));
  for (const separator of [' ', ',', ', ', ';'])
    encoded.push(octal.join(separator), decimal.join(separator), hex0x.join(separator));
  encoded.push(rot13(value), [...value].reverse().join(''));
  if (whole) encoded.push(...wholeEncodings(utf8, utf16le, utf16be));
  else encoded.push(...stableEncodings(utf8, utf16le, utf16be));
  const forms = [value, ...encoded.filter((f) => f.length >= MIN_ENCODED_CHARS)];
  // Matching is case-insensitive: forms equal but for case are one form.
  const seen = new Set<string>();
  return forms.filter((f) => {
    const key = f.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The parts of the key's base32, base64 and base64url (of its UTF-8, UTF-16LE and UTF-16BE bytes, and
 * base64 of base64) that depend on its bytes only, at each alignment: found inside a larger encoding.
 */
function stableEncodings(utf8: Buffer, utf16le: Buffer, utf16be: Buffer): string[] {
  const encoded: string[] = [];
  for (let offset = 0; offset < 5; offset++) encoded.push(stableBase32(utf8, offset));
  for (const bytes of [utf8, utf16le, utf16be]) {
    for (let offset = 0; offset < 3; offset++) {
      const b64 = stableBase64(bytes, offset);
      encoded.push(b64, b64.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  // Base64 of base64 (a token that wraps an encoded cursor): each stable part, encoded again at each alignment.
  for (let inner = 0; inner < 3; inner++) {
    const once = Buffer.from(stableBase64(utf8, inner), 'latin1');
    for (let outer = 0; outer < 3; outer++) {
      const twice = stableBase64(once, outer);
      encoded.push(twice, twice.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return encoded;
}

/**
 * The key's base32, base64 and base64url whole (with and without padding): a weak key's encodings
 * are masked only as whole values (./stands-as-key.ts), and a part of one would be no whole value.
 */
function wholeEncodings(utf8: Buffer, utf16le: Buffer, utf16be: Buffer): string[] {
  const encoded: string[] = [];
  const padded = (b64: string) => [b64, b64.replace(/=+$/, '')];
  const base32 = wholeBase32(utf8);
  encoded.push(base32, base32.padEnd(Math.ceil(base32.length / 8) * 8, '='));
  for (const bytes of [utf8, utf16le, utf16be]) encoded.push(...padded(bytes.toString('base64')));
  encoded.push(utf8.toString('base64url'));
  encoded.push(...padded(Buffer.from(utf8.toString('base64')).toString('base64')));
  return encoded;
}

function rot13(s: string): string {
  return s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 characters that depend on the secret's bytes only, `offset` bytes (mod 5) into the data. */
function stableBase32(bytes: Buffer, offset: number): string {
  const all = Buffer.concat([Buffer.alloc(offset), bytes]);
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of all) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out.slice(Math.ceil((8 * offset) / 5), Math.floor((8 * (offset + bytes.length)) / 5));
}

/** RFC 4648 base32 of `bytes`, without padding. */
function wholeBase32(bytes: Buffer): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = ((buffer << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(buffer << (5 - bits)) & 31] : out;
}

/**
 * The base64 characters that depend on the secret's bytes only, when the secret starts `offset`
 * bytes (mod 3) into the encoded data: characters before index ceil(8*offset/6) mix in the bytes
 * before it, characters from floor(8*(offset+n)/6) on mix in the bytes after it.
 */
function stableBase64(bytes: Buffer, offset: number): string {
  const all = Buffer.concat([Buffer.alloc(offset), bytes])
    .toString('base64')
    .replace(/=+$/, '');
  return all.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}
