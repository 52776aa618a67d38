/** core/document/file-id.ts: the decode memo gives what a fresh decode gives, shared frozen, within its bound. */
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from '@playwright/test';
import { decodeFileId, encodeFileId } from '../core/document/file-id.ts';

test('an id decoded again, after more ids than the memo keeps, and one longer than it keeps, decodes as the first time', () => {
  const ids = Array.from({ length: 5000 }, (_, i) => encodeFileId(`dir/file-${i}.txt`));
  const first = ids.map((id) => decodeFileId(id));
  // Compared by hand, one expect at the end: Playwright records every expect call as a step.
  const differ = ids
    .map((id, i) => ({ i, again: decodeFileId(id) }))
    .filter(({ i, again }) => !isDeepStrictEqual(again, { ok: true, path: `dir/file-${i}.txt`, padded: false }));
  expect(differ).toEqual([]);
  expect(first[0]).toEqual({ ok: true, path: 'dir/file-0.txt', padded: false });
  const long = `deep/${'x'.repeat(2000)}`;
  expect(decodeFileId(encodeFileId(long))).toEqual({ ok: true, path: long, padded: false });
  expect(decodeFileId('cfile_+a')).toEqual({
    ok: false,
    reason: 'uses the standard base64 alphabet (+ or /), not base64url',
  });
  expect(decodeFileId('cfile_+a')).toEqual({
    ok: false,
    reason: 'uses the standard base64 alphabet (+ or /), not base64url',
  });
});

test('a decoded id is frozen: the one a caller holds cannot be changed for the next', () => {
  const d = decodeFileId(encodeFileId('a/b'));
  expect(Object.isFrozen(d)).toBe(true);
  expect(() => Object.assign(d, { path: 'changed' })).toThrow();
  expect(decodeFileId(encodeFileId('a/b'))).toEqual({ ok: true, path: 'a/b', padded: false });
});
