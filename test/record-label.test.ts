import { expect, test } from '@playwright/test';
import type { SeenResponse } from '../core/check/judge.ts';
import { foundAt, recordLabel } from '../suites/judges/record-label.ts';
import { recordFindings } from '../suites/judges/records.ts';

// A failing record is named by its value and its identifying field, not only by its position.

test('a schema finding in a record says the value found and the record it sits in', () => {
  const body = {
    data: [
      { path: 'a.txt', source: 'assistant' },
      { path: 'notes/b.md', source: 'user' },
    ],
  };
  expect(foundAt(body, '/data/1/source')).toBe(', found "user" (path "notes/b.md")');
  expect(foundAt(body, '/data/1/size')).toBe(', found absent (path "notes/b.md")');
  expect(foundAt({ first_id: 3 }, '/first_id')).toBe(', found 3');
  expect(foundAt(body, '/data/1/source').length).toBeLessThan(120);
  expect(foundAt({ data: [{ path: 'x'.repeat(500) }] }, '/data/0/path').length).toBeLessThan(200);
});

test("a record's identifying field: a file's path, an intern's id, an endpoint's name or provider_name", () => {
  expect(recordLabel({ id: 'f1', path: 'p' })).toBe('path "p"');
  expect(recordLabel({ id: 'intern-1' })).toBe('id "intern-1"');
  expect(recordLabel({ name: 'e' })).toBe('name "e"');
  expect(recordLabel({ provider_name: 'P' })).toBe('provider_name "P"');
  expect(recordLabel({ id: 7 })).toBe('');
});

test('a record rule finding names the record and keeps one finding per violation kind', () => {
  const seen = { exchange: {} } as unknown as SeenResponse;
  const findings = recordFindings(
    seen,
    '/data',
    [{ path: 'ok' }, { path: 'bad-1', n: 1 }, { path: 'bad-2', n: 1 }],
    [(r) => (r.n ? { requirementId: 'files.file.schema', kind: 'n', message: 'n is 1' } : undefined)],
  );
  expect(findings.map((f) => [f.message, f.dedupeKey])).toEqual([
    ['/data/1 (path "bad-1"): n is 1', 'files.file.schema:n'],
  ]);
});
