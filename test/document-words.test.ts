import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { requirement } from '../core/document/catalogue.ts';
import { runSuiteAgainst } from './support/run-against.ts';

// A vendor who disputes a verdict disputes it with the service document: each failure carries the
// document's own sentence (spec/requirements.yaml `basis`) with its section, in every output a person
// reads, beside the suite's own statement.
test("a failure shows the document's sentence and its section on the console, in report.json, summary.md, report.html and junit.xml", async () => {
  const run = await runSuiteAgainst({ faults: ['auth-invalid-key-accepted'] });
  expect(run.code).toBe(1);
  const quote = 'When the header is missing or the key is invalid, the response is 401.';
  expect(requirement('auth.invalid-401').basis).toEqual([{ section: '5', quote }]);
  const failed = run.report!.requirements.find((r) => r.id === 'auth.invalid-401')!;
  expect(failed.status).toBe('fail');
  expect(failed.basis).toEqual([{ section: '5', quote }]);
  const consoleLines = run.stdout.split('\n');
  const failLine = consoleLines.findIndex((l) => /FAIL\s+MUST auth\.invalid-401 — /.test(l));
  expect(failLine, run.stdout).toBeGreaterThan(-1);
  expect(consoleLines[failLine + 1]).toMatch(
    /note\s+auth\.invalid-401 — the document, section 5: "When the header is missing or the key is invalid, the response is 401\."$/,
  );
  const summary = readFileSync(join(run.reportDir, 'summary.md'), 'utf8');
  expect(summary).toContain(`- The document, section 5: \`${quote}\``);
  const html = readFileSync(join(run.reportDir, 'report.html'), 'utf8');
  expect(html).toContain(`<blockquote class="basis"><cite>Section 5</cite> ${quote}</blockquote>`);
  const junit = readFileSync(join(run.reportDir, 'junit.xml'), 'utf8');
  expect(junit).toContain(`The document, section 5: ${quote}`);
});
