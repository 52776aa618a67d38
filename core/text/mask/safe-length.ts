/**
 * Keys shorter than this are masked only where they stand as the key (./weak-keys.ts), and spaced
 * forms are searched only from this length on (./spaced.ts). Eight characters: the encoded forms of
 * such a key are 9 characters of base64 or more (16 of hex), which ordinary text (ids, cursors,
 * hashes) holds by chance about once in 64^9 positions, and its characters spaced out are 8 single
 * characters in a row, which ordinary text does not write. A shorter key is most often a word or a
 * piece of one (`test`, `secret`, `abc123`), and its 4-to-8-character forms turn up by chance in
 * base64 ids and cursors: masked everywhere, it would rewrite the document's words and the report's ids.
 */
export const SAFE_KEY_CHARS = 8;
