/**
 * The report writers, in-process: one synthetic run with every requirement status, and bodies,
 * headers, messages and observed values written by a hostile target, rendered to every format.
 */
import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { CheckDeclaration, CheckOutcome } from '../core/check/check.ts';
import { catalogue } from '../core/document/catalogue.ts';
import type { Exchange } from '../core/check/evidence.ts';
import { compileOwnSchema } from '../spec/schemas.ts';
import { badgeSvg } from '../reports/badge.ts';
import { buildReport, type ReportInput } from '../reports/build-report.ts';
import { consoleSummary } from '../reports/console-summary.ts';
import { listingOf } from '../core/check/check-listing.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import { esc, mdCode, mdText } from '../reports/escape.ts';
import { HTML_SCRIPT_SHA256, reportHtml } from '../reports/html.ts';
import { verdictLine } from '../reports/format.ts';
import { junitXml } from '../reports/junit.ts';
import type { ConformanceReport } from '../reports/model.ts';
import reportSchema from '../reports/report.schema.json' with { type: 'json' };
import { summaryMarkdown } from '../reports/summary-md.ts';
import { REPORT_FILES } from '../reports/write-report.ts';
import { syntheticReportInput } from './support/synthetic-report.ts';

const validateReport = compileOwnSchema<ConformanceReport>(reportSchema);

/** What a hostile target could put in a body, a header or a message. */
const EVIL = `</td></pre><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> ]]> & "q" 'a' \u0001\u0000 \ud800 \`tick\` | *b* [l](http://evil.invalid)`;

function exchange(status: number, body: string): Exchange {
  return {
    request: {
      method: 'GET',
      url: `http://127.0.0.1:1/v1/containers/c/files?x=${encodeURIComponent('<script>')}`,
      headers: { accept: 'application/json', authorization: 'Bearer $API_KEY' },
    },
    response: {
      status,
      headers: { 'content-type': 'text/html', 'x-evil': EVIL, date: '<volatile>' },
      body,
      truncated: false,
    },
    durationMs: 3,
    retries: 0,
  };
}

const noop = async () => {};
const CHECKS: CheckDeclaration[] = [
  { id: 'x.pass', title: 'passes', operation: 'listContainerFiles', requirements: ['files.list.schema'], probe: noop },
  {
    id: 'x.fail',
    title: `fails ${EVIL}`,
    operation: 'listContainerFiles',
    requirements: ['files.file.schema'],
    kind: 'property',
    probe: noop,
  },
  {
    id: 'x.should',
    title: 'fails a SHOULD',
    operation: 'listContainerFiles',
    requirements: ['files.file.path-relative'],
    probe: noop,
  },
  {
    id: 'x.observe',
    title: 'observes',
    operation: 'listInterns',
    requirements: ['interns.limit.default'],
    kind: 'observation',
    probe: noop,
  },
  {
    id: 'x.error',
    title: 'errors',
    operation: 'listModelEndpoints',
    requirements: ['models.response.data-wrapper'],
    probe: noop,
  },
  { id: 'x.skip', title: 'skips', operation: 'listInterns', requirements: ['interns.workspace.filter'], probe: noop },
  { id: 'x.disabled', title: 'not selected', operation: 'general', requirements: ['auth.missing-401'], probe: noop },
];

function outcome(checkId: string, o: Partial<CheckOutcome>): CheckOutcome {
  return { checkId, status: 'pass', failures: [], observations: [], requests: 1, seed: 1, ...o };
}

const FULL_OUTCOMES: CheckOutcome[] = [
  outcome('x.pass', {}),
  outcome('x.fail', {
    status: 'fail',
    reason: `files.file.schema broken ${EVIL}`,
    failures: [
      {
        requirementId: 'files.file.schema',
        message: `does not match ContainerFile: ${EVIL}`,
        exchanges: [exchange(200, '{"ok":true}'), exchange(200, `<html>${EVIL}</html>`)],
        curl: `curl -sS -i -H "authorization: Bearer $API_KEY" 'http://127.0.0.1:1/v1/containers/c/files'`,
        counterexample: { value: { path: EVIL }, seed: 11, path: '0:1', numRuns: 20 },
      },
    ],
  }),
  outcome('x.should', {
    status: 'fail',
    reason: 'absolute path',
    failures: [
      {
        requirementId: 'files.file.path-relative',
        message: 'path "/a" begins with /',
        exchanges: [exchange(200, '{}')],
      },
    ],
  }),
  outcome('x.observe', {
    observations: [{ requirementId: 'interns.limit.default', value: { defaultPageSize: 50, note: EVIL } }],
  }),
  outcome('x.error', { status: 'error', reason: `suite error: ${EVIL}` }),
  outcome('x.skip', { status: 'skip', reason: `interns.otherWorkspaceId is not set ${EVIL}` }),
];

function input(outcomes: readonly CheckOutcome[], failOn: 'must' | 'should' = 'must'): ReportInput {
  return syntheticReportInput(outcomes, {
    checks: CHECKS,
    containerId: `c${EVIL}`,
    run: { durationMs: 1234, numRuns: 20, maxRequests: 2000, failOn },
  });
}

const report = buildReport(input(FULL_OUTCOMES));
const status = (id: string) => report.requirements.find((r) => r.id === id)?.status;

test('the report model: every status, evidence per failing requirement, valid against reports/report.schema.json', () => {
  expect(validateReport(report), JSON.stringify(validateReport.errors?.slice(0, 3))).toBe(true);
  expect(report.requirements.map((r) => r.id)).toEqual(catalogue().requirements.map((r) => r.id));
  expect(status('files.list.schema')).toBe('pass');
  expect(status('files.file.schema')).toBe('fail');
  expect(status('files.file.path-relative')).toBe('fail');
  expect(status('interns.limit.default')).toBe('observed');
  expect(status('models.response.data-wrapper')).toBe('error');
  expect(status('interns.workspace.filter')).toBe('skip');
  expect(status('auth.missing-401')).toBe('disabled');
  const failed = report.requirements.find((r) => r.id === 'files.file.schema')!;
  expect(failed.failures?.[0]).toMatchObject({ checkId: 'x.fail', counterexample: { seed: 11, path: '0:1' } });
  expect(failed.failures?.[0]?.exchanges).toHaveLength(2);
  expect(report.requirements.find((r) => r.id === 'interns.limit.default')?.observed).toEqual([
    { defaultPageSize: 50, note: EVIL },
  ]);
  expect(report.verdict).toBe('non-conformant');
  // The schema rejects what the model forbids: a skip without a reason, a failed UNSPECIFIED point.
  const broken = structuredClone(report);
  delete broken.requirements.find((r) => r.status === 'skip')!.reason;
  expect(validateReport(broken)).toBe(false);
  const unspecifiedFail = structuredClone(report);
  const point = unspecifiedFail.requirements.find((r) => r.level === 'UNSPECIFIED')!;
  Object.assign(point, { status: 'fail', reason: 'x', failures: [{ checkId: 'x', message: 'x', exchanges: [] }] });
  expect(validateReport(unspecifiedFail)).toBe(false);
});

// A requirement's status is its own. A check whose probe ran to its end keeps its own
// requirement passed when a whole-run judge found a SHOULD violation on a response it received; only
// a probe that stopped short leaves its requirements not reached.
test("a whole-run judge's finding fails its own requirement only, not the requirements of the check that saw it", () => {
  const judged = outcome('x.pass', {
    status: 'fail',
    probeCompleted: true,
    reason: 'files.file.path-relative: /data/0: path "/a" begins with "/"',
    failures: [
      {
        requirementId: 'files.file.path-relative',
        message: '/data/0: path "/a" begins with "/"',
        exchanges: [exchange(200, '{}')],
      },
    ],
  });
  const r = buildReport(input([judged]));
  const of = (id: string) => r.requirements.find((x) => x.id === id)!;
  expect(of('files.list.schema').status).toBe('pass');
  expect(of('files.file.path-relative').status).toBe('fail');
  expect(r.verdict).toBe('conformant');
  expect(validateReport(r), JSON.stringify(validateReport.errors?.slice(0, 3))).toBe(true);
  // The same finding from a probe that stopped short: its own requirement was not reached.
  const { probeCompleted: _, ...stopped } = judged;
  expect(buildReport(input([stopped])).requirements.find((x) => x.id === 'files.list.schema')!.status).toBe('skip');
});

test('--fail-on: a SHOULD failure alone is conformant by default and non-conformant with should', () => {
  const shouldOnly = FULL_OUTCOMES.filter((o) => o.checkId === 'x.should' || o.checkId === 'x.pass');
  expect(buildReport(input(shouldOnly, 'must')).verdict).toBe('conformant');
  expect(buildReport(input(shouldOnly, 'should')).verdict).toBe('non-conformant');
  const withError = FULL_OUTCOMES.filter((o) => o.checkId === 'x.error' || o.checkId === 'x.pass');
  expect(buildReport(input(withError)).verdict).toBe('error');
});

test('report.html escapes everything the target sent, runs only its own hashed script, and has no external reference', () => {
  const html = reportHtml(report);
  expect(html.match(/<script/gi)).toHaveLength(1);
  expect(html).not.toMatch(/<img/i);
  expect(html).not.toContain('window.__pwned=1</script>');
  expect(html).not.toContain('\u0000');
  expect(html).toContain(esc('<script>window.__pwned=1</script>'));
  // The one inline script is the one the Content-Security-Policy allows, and nothing else may load.
  const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
  expect(createHash('sha256').update(script).digest('base64')).toBe(HTML_SCRIPT_SHA256);
  expect(html).toContain(`script-src 'sha256-${HTML_SCRIPT_SHA256}'`);
  expect(html).toContain("default-src 'none'");
  expect(html).not.toMatch(/\b(src|href)=["']?(https?:|\/\/)/i);
  expect(html).not.toMatch(/<link\b/i);
  // Content a reader needs: verdict, filters, sections, the failure's evidence, the profile.
  expect(html).toContain('data-verdict="non-conformant"');
  expect(html).toContain('id="filter-status"');
  expect(html).toContain('id="filter-level"');
  expect(html).toMatch(/<h3>2 Resources and their fields<\/h3>/);
  expect(html).toContain('<details class="evidence">');
  expect(html).toContain(esc(`curl -sS -i -H "authorization: Bearer $API_KEY"`));
  expect(html).toContain('<section id="profile">');
  for (const r of report.requirements)
    expect(html).toContain(`id="req-${esc(r.id)}" data-status="${r.status}" data-level="${r.level}"`);
});

/** A small well-formedness check: balanced elements, quoted attributes, no raw `<` or stray `&` in text, only XML 1.0 characters. */
function expectWellFormedXml(xml: string): void {
  expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  expect(xml).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let i = 0;
  while (i < body.length) {
    const lt = body.indexOf('<', i);
    const text = body.slice(i, lt < 0 ? body.length : lt);
    expect(text).not.toMatch(/&(?!(amp|lt|gt|quot|#39|#\d+);)/);
    if (lt < 0) break;
    tag.lastIndex = lt;
    const m = tag.exec(body);
    expect(m, `malformed tag at ${JSON.stringify(body.slice(lt, lt + 80))}`).not.toBeNull();
    const [, close, name, , selfClose] = m!;
    if (close) expect(stack.pop()).toBe(name);
    else if (!selfClose) stack.push(name!);
    i = tag.lastIndex;
  }
  expect(stack).toEqual([]);
}

test('junit.xml: one test case per requirement in one suite per operation; skipped, observed, failure with curl, error', () => {
  const xml = junitXml(report);
  expectWellFormedXml(xml);
  // Its first element says the verdict and what it does not cover, as every output's first line does.
  expect(xml).toContain(
    `<testsuites name="conformance 1.0.0: ${verdictLine(report).replaceAll('&', '&amp;').replaceAll('"', '&quot;')} (`,
  );
  expect(xml.match(/<testcase /g)).toHaveLength(report.requirements.length);
  const operations = [...new Set(report.requirements.map((r) => r.operation))];
  expect([...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1])).toEqual(expect.arrayContaining(operations));
  expect(xml.match(/<testsuite /g)).toHaveLength(operations.length);
  const skipped = report.requirements.filter((r) => r.status === 'skip' || r.status === 'disabled').length;
  expect(xml.match(/<skipped message=/g)).toHaveLength(skipped);
  // The SHOULD failure does not gate (fail-on must): a passed case with its warning, as the exit code says.
  expect(xml).toMatch(
    new RegExp(`<testsuites [^>]*tests="${report.requirements.length}" failures="1" errors="1" skipped="${skipped}"`),
  );
  const fail =
    /<testcase name="\[MUST\] files\.file\.schema:[^"]*" classname="listContainerFiles">\s*<failure message="([^"]*)" type="MUST">([^<]*)<\/failure>/.exec(
      xml,
    );
  expect(fail).not.toBeNull();
  expect(fail![2]).toContain('reproduce: curl -sS -i -H &quot;authorization: Bearer $API_KEY&quot;');
  expect(fail![2]).toContain('counterexample: ');
  expect(xml).toMatch(
    /<testcase name="\[SHOULD\] files\.file\.path-relative:[^"]*" classname="listContainerFiles">\s*<properties>\s*<property name="warning" value="SHOULD failed \(not gating without --fail-on should\): [^"]*"\/>\s*<\/properties>\s*<system-out>WARNING: files\.file\.path-relative/,
  );
  // Under --fail-on should the same failure gates: a JUnit failure.
  const gating = junitXml({ ...report, run: { ...report.run, failOn: 'should' } });
  expect(gating).toMatch(
    /<testcase name="\[SHOULD\] files\.file\.path-relative:[^"]*" classname="listContainerFiles">\s*<failure [^>]*type="SHOULD"/,
  );
  expect(gating).toMatch(/<testsuites [^>]*failures="2" errors="1"/);
  // The banner of report.html names the MUST requirements left unjudged, as the verdict line does.
  const notJudged = /\d+ MUST not judged[^;]*/.exec(verdictLine(report))?.[0];
  expect(notJudged, verdictLine(report)).toBeDefined();
  expect(/<header id="verdict"[\s\S]*?<\/header>/.exec(reportHtml(report))![0]).toContain(esc(notJudged!));
  expect(xml).toMatch(
    /<testcase name="\[UNSPECIFIED\] interns\.limit\.default:[^"]*" classname="listInterns">\s*<properties>\s*<property name="observed" value="[^"]*defaultPageSize[^"]*"\/>/,
  );
  expect(xml).toMatch(
    /<testcase name="\[MUST\] models\.response\.data-wrapper:[^"]*" classname="listModelEndpoints">\s*<error message=/,
  );
  expect(xml).toMatch(
    /<testcase name="\[MUST\] auth\.missing-401:[^"]*" classname="general">\s*<skipped message="disabled: /,
  );
});

test('summary.md: verdict, counts per level and per operation, failures with ids and one line, replay; no raw HTML', () => {
  const md = summaryMarkdown(report);
  expect(md).toMatch(/^## ❌ Conformance 1\.0\.0: NON-CONFORMANT/);
  expect(md).toContain('| level | pass | fail | error | skip | disabled | observed |');
  expect(md).toMatch(/\| MUST \| \d+ \| \*\*1\*\* \|/);
  expect(md).toContain('| operation | pass | fail | error | skip | disabled | observed |');
  expect(md).toMatch(/\| listContainerFiles \|/);
  expect(md).toContain('### Failures (2)');
  expect(md).toMatch(/^- `files\.file\.schema` \(MUST, section 2\.1, listContainerFiles\): /m);
  expect(md).toMatch(/^- `files\.file\.path-relative` \(SHOULD/m);
  expect(md).toContain('### Errors (1)');
  expect(md).toContain('```sh\nnpm run conformance -- --seed 7\n```');
  // Target text is in code spans (shown as written, never HTML or a link): no tag outside them.
  expect(md.replace(/(`+)[\s\S]*?\1/g, '')).not.toMatch(/<(script|img)/i);
  expect(md).toMatch(
    /^- `files\.file\.schema` \(MUST, section 2\.1, listContainerFiles\): ``x\.fail: does not match ContainerFile: <\/td>.*\[l\]\(http:\/\/evil\.invalid\)``$/m,
  );
  expect(md).not.toContain('\u0000');
  for (const line of md.split('\n').filter((l) => l.startsWith('- '))) expect(line.length).toBeLessThan(600);
  // Markdown escaping holds for any text: no tag, link or code span can be opened from inside.
  expect(mdText('<b>[x](y) `z` | *w*')).toBe('&lt;b&gt;\\[x\\]\\(y\\) \\`z\\` \\| \\*w\\*');
  expect(mdCode('a `b` c')).toBe('``a `b` c``');
});

test('badge.svg: conformant green, non-conformant red, error and incomplete grey; a partial run says so', () => {
  const { partial: _p, ...whole } = report.run;
  const svgs = (['conformant', 'non-conformant', 'error', 'incomplete'] as const).map((verdict) =>
    badgeSvg({ ...report, run: whole, verdict }),
  );
  expect(svgs[0]).toContain('>conformance 1.0.0<');
  expect(svgs[0]).toContain('>conformant<');
  expect(svgs[0]).toContain('fill="#2e8540"');
  expect(svgs[1]).toContain('>non-conformant<');
  expect(svgs[1]).toContain('fill="#d73a49"');
  expect(svgs[2]).toContain('>error<');
  expect(svgs[2]).toContain('fill="#6a737d"');
  expect(svgs[3]).toContain('>incomplete<');
  expect(svgs[3]).toContain('fill="#6a737d"');
  const partial = badgeSvg({ ...report, run: { ...whole, partial: { checks: 4, of: 93 } }, verdict: 'conformant' });
  expect(partial).toContain('>conformant (partial 4/93)<');
  for (const svg of [...svgs, partial]) expectWellFormedXml(svg);
});

test('every file of the report directory renders from the model alone, deterministically', () => {
  expect(Object.keys(REPORT_FILES).sort()).toEqual([
    'badge.svg',
    'junit.xml',
    'report.html',
    'report.json',
    'summary.md',
  ]);
  for (const render of Object.values(REPORT_FILES)) expect(render(structuredClone(report))).toBe(render(report));
});

// report.html gives every failure the command that replays it, not only a property's.
test('report.html: a failure without a counterexample has its replay too', () => {
  const html = reportHtml(buildReport(input(FULL_OUTCOMES)));
  expect(html).toContain('Replay this check');
  expect(html).toContain(esc(`npm run conformance -- --seed 7 --grep '(^| )x\\.should( |$)'`));
});

// A reporter action fails the job on failures + errors > 0; junit.xml says that exactly
// when the exit code is not 0, whatever the verdict.
test('junit.xml gates as the exit code: conformant with a SHOULD failure, non-conformant, error, incomplete (cut by a run limit, or --require-all)', () => {
  const gate = (r: ConformanceReport) => {
    const xml = junitXml(r);
    const root = /<testsuites [^>]*failures="(\d+)" errors="(\d+)"/.exec(xml)!;
    const counted = {
      failures: (xml.match(/<failure[ >]/g) ?? []).length,
      errors: (xml.match(/<error[ >]/g) ?? []).length,
    };
    expect({ failures: Number(root[1]), errors: Number(root[2]) }).toEqual(counted);
    return counted.failures + counted.errors > 0;
  };
  const shouldOnly = FULL_OUTCOMES.filter((o) => o.checkId === 'x.should' || o.checkId === 'x.pass');
  const cut = outcome('x.pass', { status: 'skip', reason: 'not sent: the deadline passed', cause: 'run-limit' });
  const absent = outcome('x.skip', {
    status: 'skip',
    reason: 'interns.otherWorkspaceId is not set',
    cause: 'target-field',
  });
  const cases: Array<[string, ConformanceReport, boolean]> = [
    ['SHOULD only, fail-on must', buildReport(input(shouldOnly, 'must')), false],
    ['SHOULD only, fail-on should', buildReport(input(shouldOnly, 'should')), true],
    ['MUST failing', report, true],
    ['error', buildReport(input(FULL_OUTCOMES.filter((o) => o.checkId === 'x.error' || o.checkId === 'x.pass'))), true],
    ['incomplete: a run limit', buildReport({ ...input([cut]), stopped: 'the deadline passed' }), true],
    ['incomplete: --require-all', buildReport({ ...input([outcome('x.pass', {}), absent]), requireAll: true }), true],
    ['conformant, a field absent without --require-all', buildReport(input([outcome('x.pass', {}), absent])), false],
  ];
  for (const [name, r, fails] of cases) {
    expect(gate(r), `${name}: verdict ${r.verdict}`).toBe(fails);
    expect(r.verdict !== 'conformant', name).toBe(fails);
  }
  // The incomplete run's unjudged MUST requirement is an error naming why.
  expectWellFormedXml(junitXml(cases[4]![1]));
  expect(junitXml(cases[4]![1])).toMatch(
    /<testcase name="\[MUST\] files\.list\.schema:[^"]*" classname="listContainerFiles">\s*<error message="not judged \(incomplete\): [^"]*deadline/,
  );
});

test("a requirement's failures are in the order of the run's tests, the order the console says them: its reason, summary.md's first failure", () => {
  const order = listingOf(ALL_CHECKS).map((c) => c.id);
  // Two real checks of one requirement, whose order as tests differs from their order as declared.
  const [first, second] = ['files.limit.page-size', 'files.property.strictly-after'].sort(
    (a, b) => order.indexOf(a) - order.indexOf(b),
  );
  expect(
    ALL_CHECKS.findIndex((c) => c.id === second) < ALL_CHECKS.findIndex((c) => c.id === first),
    'declared in the other order',
  ).toBe(true);
  const failing = (checkId: string) =>
    outcome(checkId, {
      status: 'fail',
      reason: `files.after.strictly-after: by ${checkId}`,
      failures: [{ requirementId: 'files.after.strictly-after', message: `by ${checkId}`, exchanges: [] }],
    });
  const r = buildReport({ ...input([failing(second!), failing(first!)]), checks: ALL_CHECKS });
  const q = r.requirements.find((x) => x.id === 'files.after.strictly-after')!;
  expect(q.reason).toBe(`${first}: by ${first}`);
  expect(q.failures!.map((f) => f.checkId)).toEqual([first, second]);
  const md = summaryMarkdown(r);
  expect(md.indexOf(`Check \`${first}\``)).toBeGreaterThan(-1);
  expect(md.indexOf(`Check \`${first}\``)).toBeLessThan(md.indexOf(`Check \`${second}\``));
});

test("a requirement no check reached: its reason names the check that failed first, never that check's finding; the console names it", () => {
  // x.fail stops short on files.file.schema: files.list.schema, which it also covers, was not reached.
  const checks: CheckDeclaration[] = [
    {
      id: 'x.fail',
      title: 'fails',
      operation: 'listContainerFiles',
      requirements: ['files.file.schema', 'files.list.schema', 'files.after.control-char-paths'],
      probe: noop,
    },
  ];
  const failed = outcome('x.fail', {
    status: 'fail',
    reason: 'a finding quoting the target',
    failures: [{ requirementId: 'files.file.schema', message: 'a finding quoting the target', exchanges: [] }],
  });
  const r = buildReport({ ...input([failed]), checks });
  for (const id of ['files.list.schema', 'files.after.control-char-paths']) {
    const q = r.requirements.find((x) => x.id === id)!;
    expect(q.status, id).toBe('skip');
    expect(q.reason, id).toBe('not reached: x.fail failed first on files.file.schema');
  }
  const printed = consoleSummary(r, '/tmp/r', 1000);
  expect(printed).toContain(
    'not judged: MUST files.list.schema (not reached: x.fail failed first on files.file.schema)',
  );
  expect(printed.indexOf('not judged:')).toBeLessThan(printed.indexOf('verdict:'));
  // Nothing unreached: no such line.
  expect(consoleSummary(report, '/tmp/r', 1000)).not.toContain('not judged:');
});

test('--require-all: the verdict names the absent fields once, read from the outcome, not its reason', () => {
  const absent = outcome('x.skip', {
    status: 'skip',
    // The reason's words are not read back: the field is the outcome's own.
    reason: 'the target file leaves it out',
    cause: 'target-field',
    field: 'interns.otherWorkspaceId',
  });
  const r = buildReport({ ...input([outcome('x.pass', {}), absent]), requireAll: true });
  const line = verdictLine(r);
  expect(r.verdict).toBe('incomplete');
  expect(line.split('interns.otherWorkspaceId').length - 1, line).toBe(1);
  // Without --require-all the verdict names them, once too.
  const plain = verdictLine(buildReport(input([outcome('x.pass', {}), absent])));
  expect(plain.split('interns.otherWorkspaceId').length - 1, plain).toBe(1);
});
