/**
 * summary.md from a report model built here: the verdict line first, each failure with what a reader
 * acts on, and every string a hostile target controls kept inside code, where Markdown renders nothing.
 */
import { expect, test } from '@playwright/test';
import { LEVELS } from '../core/document/catalogue.ts';
import type { Exchange } from '../core/check/evidence.ts';
import { REQUIREMENT_STATUSES, type ConformanceReport, type RequirementResult } from '../reports/model.ts';
import { summaryMarkdown } from '../reports/summary-md.ts';
import { consoleSummary } from '../reports/console-summary.ts';

/** What a target can put in a body, a URL or a value the suite quotes. */
const HOSTILE =
  'see http://evil.example/ and <script>alert(1)</script> ``` `x` \u001b[2J\u009b31m [l](http://evil.example/) **b** | \u202e';

function exchange(url: string): Exchange {
  return {
    request: { method: 'GET', url, headers: { authorization: 'Bearer $API_KEY' } },
    response: { status: 200, headers: {}, body: HOSTILE, truncated: false },
    durationMs: 2,
    retries: 0,
  };
}

function requirement(id: string, level: 'MUST' | 'SHOULD', o: Partial<RequirementResult>): RequirementResult {
  return {
    id,
    level,
    section: '4.1 rule 3',
    operation: 'listContainerFiles',
    statement: `statement of ${id}`,
    status: 'pass',
    checks: [`${id}.check`],
    ...o,
  };
}

const URL_WITH_CURSOR = `http://127.0.0.1:1/v1/containers/c/files?after=${encodeURIComponent('http://evil.example/`<script>')}`;

const REQUIREMENTS: RequirementResult[] = [
  requirement('files.after.strictly-after', 'MUST', {
    status: 'fail',
    reason: `page starts at ${HOSTILE}`,
    failures: [
      {
        checkId: 'files.property.strictly-after',
        message: `after names "${HOSTILE}" but the page starts there`,
        exchanges: [exchange(URL_WITH_CURSOR)],
        curl: `curl -sS -i -H "authorization: Bearer $API_KEY" '${URL_WITH_CURSOR}'`,
        counterexample: {
          value: { at: { path: HOSTILE, position: 'listed' }, limit: 1, f: '[function]' },
          seed: 11,
          path: '5:0:0',
          numRuns: 20,
        },
      },
    ],
  }),
  requirement('files.file.path-relative', 'SHOULD', {
    status: 'fail',
    reason: 'path "/a" begins with /',
    failures: [
      {
        checkId: 'files.file.path-relative',
        message: 'path "/a" begins with /',
        exchanges: [exchange('http://127.0.0.1:1/v1/containers/c/files')],
      },
    ],
  }),
  requirement('files.list.schema', 'MUST', { status: 'pass' }),
  requirement('files.limit.bounds', 'MUST', { status: 'skip', reason: HOSTILE }),
];

function report(failOn: 'must' | 'should' = 'must', run: Partial<ConformanceReport['run']> = {}): ConformanceReport {
  const counts = Object.fromEntries(
    LEVELS.map((l) => [l, Object.fromEntries(REQUIREMENT_STATUSES.map((s) => [s, 0]))]),
  ) as ConformanceReport['counts'];
  for (const r of REQUIREMENTS) counts[r.level][r.status]++;
  return {
    reportVersion: 1,
    specVersion: '1.0.0',
    specDocument: 'Service interface',
    suite: { name: 'conformance-suite', version: '0.1.0', commit: 'abc1234' },
    target: {
      baseUrl: 'http://evil.example/v1',
      file: {
        baseUrl: 'http://evil.example/v1',
        containerFiles: { containerId: 'c' },
        modelEndpoints: { model: 'a/b' },
        interns: { workspaceId: 'w' },
        hasRestrictedKey: false,
      },
    },
    run: {
      seed: 7,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1234,
      requests: 12,
      retries: 0,
      numRuns: 20,
      maxRequests: 2000,
      failOn,
      budgetExhausted: [],
      replay: 'npm run conformance -- --target t.yaml --seed 7',
      ...run,
    },
    verdict: 'non-conformant',
    counts,
    requirements: REQUIREMENTS,
    checks: [],
  };
}

/**
 * The text Markdown would render as Markdown: the file without its fenced blocks and code spans
 * (CommonMark: a fence closes on a line of at least as many backticks; a span on the next run of
 * exactly as many). A fenced line indented less than its fence would leave the list item it is in,
 * so that is an error here.
 */
function renderedOutsideCode(md: string): string {
  const out: string[] = [];
  let fence: { indent: number; length: number } | undefined;
  for (const line of md.split('\n')) {
    const m = /^( *)(`{3,})([^`]*)$/.exec(line);
    if (fence) {
      if (m && m[2]!.length >= fence.length && m[3]!.trim() === '') fence = undefined;
      else if (line.length - line.trimStart().length < fence.indent && line.trim() !== '')
        throw new Error(`a fenced line leaves its list item: ${line}`);
      continue;
    }
    if (m) {
      fence = { indent: m[1]!.length, length: m[2]!.length };
      continue;
    }
    let rest = line;
    let text = '';
    for (;;) {
      const open = /`+/.exec(rest);
      if (!open) break;
      const after = rest.slice(open.index + open[0].length);
      const close = new RegExp(`(?<!\`)\`{${open[0].length}}(?!\`)`).exec(after);
      if (!close) break;
      text += `${rest.slice(0, open.index)} `;
      rest = after.slice(close.index + close[0].length);
    }
    out.push(text + rest);
  }
  expect(fence, 'every fence is closed').toBeUndefined();
  return out.join('\n');
}

test('the verdict line comes first and says what the verdict rests on; SHOULD failures are marked not gating', () => {
  const md = summaryMarkdown(report());
  // The line is reports/format.ts verdictLine: what the verdict rests on, parts joined by '; '.
  expect(md.split('\n')[0]).toBe(
    '## ❌ Conformance 1.0.0: NON-CONFORMANT — 1 MUST failed; 1 SHOULD failed \\(not gating\\); 1 MUST not judged',
  );
  expect(md).toMatch(/^- `files\.file\.path-relative` \(SHOULD, not gating, /m);
  expect(md).toMatch(/^#### `files\.file\.path-relative` · SHOULD · not gating · /m);
  expect(md).toMatch(/^- `files\.after\.strictly-after` \(MUST, section 4\.1 rule 3, listContainerFiles\): /m);
  // The MUST not judged is named with its reason.
  expect(md).toContain('### MUST requirements skipped (1)');
  expect(md).toMatch(/^- `files\.limit\.bounds` \(MUST, section 4\.1 rule 3, listContainerFiles\): `+ ?see http/m);
  // With --fail-on should a SHOULD failure gates: no "not gating" anywhere.
  const should = summaryMarkdown(report('should'));
  expect(should.split('\n')[0]).toBe(
    '## ❌ Conformance 1.0.0: NON-CONFORMANT — 1 MUST failed; 1 SHOULD failed; 1 MUST not judged',
  );
  expect(should).not.toContain('not gating');
  // A MUST skipped because an optional target field is absent is named with the field, not counted twice.
  const absent = summaryMarkdown(
    report('must', { mustNotJudged: { count: 1, fields: ['containerFiles.emptyContainerId'] } }),
  );
  expect(absent.split('\n')[0]).toBe(
    '## ❌ Conformance 1.0.0: NON-CONFORMANT — 1 MUST failed; 1 SHOULD failed \\(not gating\\); 1 MUST not judged: containerFiles.emptyContainerId absent',
  );
});

test('each failure gives its requirement, level, message, counterexample as JSON data, curl and replay', () => {
  const md = summaryMarkdown(report());
  const section = md.slice(
    md.indexOf('#### `files.after.strictly-after`'),
    md.indexOf('#### `files.file.path-relative`'),
  );
  expect(section).toMatch(/^#### `files\.after\.strictly-after` · MUST · section 4\.1 rule 3 · listContainerFiles$/m);
  expect(section).toContain('> statement of files.after.strictly-after');
  expect(section).toMatch(/^- Check `files\.property\.strictly-after`: `+ ?after names "see http/m);
  expect(section).toContain('- Last response: HTTP 200 to ');
  expect(section).toContain('- Counterexample (fast-check seed 11, path `5:0:0`), as JSON data:');
  // The counterexample block is JSON that parses back to the value (control characters as JSON escapes).
  const json = /^ {2}(`{3,})json\n([\s\S]*?)\n {2}\1$/m.exec(section);
  expect(json).not.toBeNull();
  const block = json![2]!
    .split('\n')
    .map((l) => l.slice(2))
    .join('\n');
  expect(JSON.parse(block)).toEqual({ at: { path: HOSTILE, position: 'listed' }, limit: 1, f: '[function]' });
  expect(section).toContain(`  curl -sS -i -H "authorization: Bearer $API_KEY" '${URL_WITH_CURSOR}'`);
  // The replay carries the run's command (target and options) and selects exactly this check.
  expect(section).toContain(
    "  npm run conformance -- --target t.yaml --seed 7 --grep '(^| )files\\.property\\.strictly-after( |$)' --replay-path '5:0:0'",
  );
  expect(md).toContain('```sh\nnpm run conformance -- --target t.yaml --seed 7\n```');
});

test('target-controlled text stays in code: no link, tag, emphasis or control character reaches the rendered Markdown', () => {
  // The reading of Markdown used here sees text outside code (so its silence below means something).
  expect(renderedOutsideCode('a `x` http://evil.example/ ``y`` z')).toBe('a   http://evil.example/   z');
  expect(renderedOutsideCode('```\n<script>\n```\n<b>')).toBe('<b>');
  const md = summaryMarkdown(report());
  expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  expect(md).toContain('\\x1b[2J');
  const rendered = renderedOutsideCode(md);
  expect(rendered).not.toContain('evil.example');
  expect(rendered).not.toContain('<script');
  expect(rendered).not.toContain('[2J');
  expect(rendered).not.toContain('**b**');
  // The hostile text is there, escaped, inside code (the reader sees what the target sent).
  expect(md).toContain('http://evil.example/');
  expect(md).toContain('<script>alert(1)</script>');
});

test('a backtick run longer than any fence cannot close the block it is in', () => {
  const long = '`'.repeat(9);
  const r = report();
  r.requirements = [
    requirement('files.after.strictly-after', 'MUST', {
      status: 'fail',
      reason: long,
      failures: [
        {
          checkId: 'c',
          message: `${long} http://evil.example/`,
          exchanges: [],
          curl: `curl '${long}\nhttp://evil.example/'`,
          counterexample: { value: `${long}\n${long}http://evil.example/`, seed: 1 },
        },
      ],
    }),
  ];
  const rendered = renderedOutsideCode(summaryMarkdown(r));
  expect(rendered).not.toContain('evil.example');
});

// Target text is data in summary.md. Rendered by a CommonMark parser, the file holds no
// link, image or raw HTML the suite did not write, wherever the target's text lands (the verdict
// line's cause included: a Retry-After quoted in an incomplete run's reason).
test('rendered as CommonMark, summary.md holds no link, image or HTML from the target, also in its first heading', async () => {
  const { Parser } = await import('commonmark');
  const attack =
    '[pwned](https://evil.example/x) ![img](https://evil.example/i.png) <https://evil.example/a> https://evil.example/auto <b>x</b> \u200b\ufeff';
  const md = summaryMarkdown(
    report('must', {
      incomplete: `1 MUST requirement(s) not judged: target still answered 429 (Retry-After: ${attack})`,
    }),
  );
  const walker = new Parser().parse(md).walker();
  const unwanted: string[] = [];
  for (let e = walker.next(); e; e = walker.next()) {
    if (!e.entering) continue;
    const t = e.node.type;
    if (t === 'link' || t === 'image' || t === 'html_inline' || t === 'html_block')
      unwanted.push(`${t}: ${e.node.destination ?? e.node.literal ?? ''}`);
  }
  expect(unwanted).toEqual([]);
  expect(md.split('\n')[0]).toContain('pwned');
  // Invisible characters shown escaped, as bidi controls are.
  expect(md).not.toMatch(/[\u200b\ufeff]/);
});

test("the time waited on the target's rate limit is said in summary.md and on the console, when there was some", () => {
  const waited = report('must', { rateLimitedWaitMs: 33_000, retries: 7 });
  const line = "waited 33.0 s for the target's rate limit (7 retries)";
  // Markdown escapes the parentheses; the words are the same.
  expect(summaryMarkdown(waited).replace(/\\([()])/g, '$1')).toContain(line);
  // The console says the retries once, the time waited beside them.
  expect(consoleSummary(waited, 'r', 1000)).toContain("(7 retries, waited 33.0 s for the target's rate limit)");
  expect(summaryMarkdown(report())).not.toContain('waited');
});
