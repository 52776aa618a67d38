/**
 * The text in lower case, position for position. The native lower case keeps every position but for
 * U+0130, which becomes two code units (it would shift every position after it): a text holding one
 * is lowered by ASCII only. (The Kelvin sign lowers to `k`: such a text is masked as if it spelled
 * the key's `k`, which hides no more than a look-alike of the key.)
 */
export function lowerCase(s: string): string {
  return s.includes('\u0130') ? asciiLower(s) : s.toLowerCase();
}

/**
 * Lower case of the ASCII letters only. Keys and their encodings are ASCII (RFC 6750 b64token), and
 * the search maps positions of this text back to the view's: `String.prototype.toLowerCase` may
 * lengthen a text (U+0130 becomes two code units), which would shift every position after it.
 */
export function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}
