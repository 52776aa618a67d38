import type { Target } from '../../target/target.ts';
import { DOCUMENT_WORDS } from './document-words.ts';
import { SAFE_KEY_CHARS } from './safe-length.ts';

/**
 * A weak key: shorter than SAFE_KEY_CHARS, or one of the document's words (./document-words.ts, in
 * any case). Masked everywhere, it would rewrite the document's words in every body and the report's
 * field names and check ids (a key `data` in `"data": [...]`, a key `errors` in
 * `files.errors.service-metadata`); it is masked only where it stands as the key (./stands-as-key.ts).
 */
export function isWeakKey(value: string): boolean {
  return value.length < SAFE_KEY_CHARS || DOCUMENT_WORDS.has(value.toLowerCase());
}

/** What the run says at load of each weak key of the target file: one line naming its field, never the key. */
export function weakKeyWarnings(target: Pick<Target, 'apiKey' | 'restrictedApiKey'>): string[] {
  const fields: Array<[string, string | undefined]> = [
    ['apiKey', target.apiKey],
    ['restrictedApiKey', target.restrictedApiKey],
  ];
  return fields
    .filter(([, key]) => key !== undefined && key !== '' && isWeakKey(key))
    .map(
      ([field]) =>
        `${field} of the target file is shorter than ${SAFE_KEY_CHARS} characters or one of the document's words: masking it everywhere would hide the document's words; it is masked only where it stands as the key (a header value, after Bearer, a whole string or parameter value)`,
    );
}
