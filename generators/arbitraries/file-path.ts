import fc from 'fast-check';

export interface FilePathConstraints {
  /** Most code points in a path (default 40). */
  maxLength?: number;
}

// Characters that make paths hard: separators, spaces, case, the order-sensitive punctuation around
// "/", accents, CJK, an astral emoji (UTF-16 order differs from byte order there) and U+FFFD.
const HARD = [...'aAbBzZ09 ./-_~+=%é日本\u00e9\u0301\uFFFD\uE000'].concat(['\u{1F600}', '\u{10000}']);

/**
 * A container path (2.1) of valid Unicode (no lone surrogates: a path must survive UTF-8). Not empty:
 * the empty path names no file.
 */
export function filePath(c: FilePathConstraints = {}): fc.Arbitrary<string> {
  const maxLength = c.maxLength ?? 40;
  if (!Number.isInteger(maxLength) || maxLength < 1)
    throw new RangeError(`filePath: maxLength must be a positive integer, got ${maxLength}`);
  return fc.oneof(
    fc.string({ minLength: 1, maxLength, unit: fc.constantFrom(...HARD) }),
    fc.string({ minLength: 1, maxLength, unit: 'grapheme' }),
  );
}
