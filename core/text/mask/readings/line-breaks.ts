import type { Reading } from '../reading.ts';

/** NUL (UTF-16 bytes read as text: a NUL beside each character) and line breaks (a key wrapped), skipped. */
export const lineBreaks: Reading = {
  name: 'NUL and line breaks',
  literal: true,
  startsAt: '\0\n\r',
  read: (_pass, i) => i + 1,
};
