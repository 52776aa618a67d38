/**
 * report.html in a real browser (Debian's chromium): the verdict shows, the filters work, a failure's
 * evidence expands, nothing is fetched from the network, and a hostile target's body stays text.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { runConformance } from '../cli/api.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';

const CHROMIUM = '/usr/bin/chromium';

// Each test runs the suite in-process (runConformance writes the report files the command writes:
// what is tested here is report.html), then a browser: generous on a loaded machine, still bounded.
test.describe.configure({ timeout: 300_000 });
/** A MUST fault of the reference: a run against it has a failure with evidence. */
const MUST_FAULT = 'models-unknown-200';

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-gpu',
    ],
  });
}

/** Opens a report with every request other than the file:// page itself blocked and recorded. */
async function openReport(browser: Browser, htmlFile: string): Promise<{ page: Page; attempted: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const attempted: string[] = [];
  await page.route('**', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    attempted.push(url);
    return route.abort();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !attempted.includes(r.url())) attempted.push(r.url());
  });
  await page.goto(pathToFileURL(htmlFile).href);
  return { page, attempted };
}

test('report.html of a faulty target: verdict, filters by status and level, a failure expands; no network', async ({}, testInfo) => {
  test.skip(!existsSync(CHROMIUM), 'chromium not installed: apt-get install chromium');
  const server = await startReference({ faults: [MUST_FAULT] });
  const dir = mkdtempSync(join(tmpdir(), 'report-browser-'));
  writeFileSync(join(dir, 'target.yaml'), referenceTargetYaml(server));
  const reportDir = join(dir, 'report');
  const report = await runConformance({
    target: join(dir, 'target.yaml'),
    seed: 7,
    env: referenceKeyEnv(server),
    reportDir,
  }).finally(() => server.close());
  expect(report.verdict).toBe('non-conformant');
  const failed = report.requirements.filter((r) => r.status === 'fail');
  expect(failed.length).toBeGreaterThan(0);

  const browser = await launch();
  try {
    const { page, attempted } = await openReport(browser, join(reportDir, 'report.html'));

    await expect(page.locator('#verdict')).toBeVisible();
    await expect(page.locator('#verdict .word')).toHaveText('Non-conformant');
    const rows = page.locator('tr.req');
    await expect(rows).toHaveCount(report.requirements.length);
    await expect(page.locator('#filters')).toBeVisible();

    // Status filter: failures only.
    await page.selectOption('#filter-status', 'fail');
    await expect(page.locator('tr.req:visible')).toHaveCount(failed.length);
    for (const status of await page
      .locator('tr.req:visible')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))))
      expect(status).toBe('fail');
    await expect(page.locator('#shown')).toHaveText(
      `${failed.length} of ${report.requirements.length} requirements shown`,
    );

    // A failure's evidence expands: request, response, reason, curl reproduction.
    const first = failed[0]!;
    const evidence = page.locator(`tr[id="req-${first.id}"] details.evidence`);
    await expect(evidence.locator('pre.curl').first()).toBeHidden();
    await evidence.locator('summary').click();
    await expect(evidence).toHaveAttribute('open', '');
    const failure = first.failures![0]!;
    const last = failure.exchanges[failure.exchanges.length - 1]!;
    await expect(evidence.locator('pre.curl').first()).toBeVisible();
    await expect(evidence.locator('pre.curl').first()).toHaveText(failure.curl!);
    await expect(evidence.locator('pre.request').last()).toContainText(`GET ${last.request.url}`);
    await expect(evidence.locator('pre.response').last()).toContainText(`HTTP ${last.response!.status}`);
    await expect(evidence.locator('.failure').first()).toContainText(failure.message);

    const shot = testInfo.outputPath('report.png');
    await page.screenshot({ path: shot, fullPage: true });
    await testInfo.attach('report.png', { path: shot, contentType: 'image/png' });

    // The evidence is readable at any width, not squeezed into the last column: at 1280 px
    // and at 800 px the request block takes at least 45% of the window, and nothing scrolls sideways.
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 900 });
      const box = await evidence.locator('pre.request').last().boundingBox();
      expect(box!.width / width, `request block at ${width} px`).toBeGreaterThan(0.45);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
        `no sideways scroll at ${width} px`,
      ).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Level filter: SHOULD rows only, every status.
    await page.selectOption('#filter-status', '');
    await page.selectOption('#filter-level', 'SHOULD');
    const should = report.requirements.filter((r) => r.level === 'SHOULD').length;
    await expect(page.locator('tr.req:visible')).toHaveCount(should);
    for (const level of await page
      .locator('tr.req:visible')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-level'))))
      expect(level).toBe('SHOULD');
    // Sections without a visible row are hidden with their heading.
    for (const section of await page.locator('section.group').all()) {
      expect(await section.isVisible()).toBe((await section.locator('tr.req:visible').count()) > 0);
    }

    // The implementation profile lists every UNSPECIFIED point.
    await expect(page.locator('#profile tbody tr')).toHaveCount(
      report.requirements.filter((r) => r.level === 'UNSPECIFIED').length,
    );
    expect(attempted, 'requests other than the file:// page').toEqual([]);
  } finally {
    await browser.close();
  }
});

test('report.html of a hostile target: <script> in its body and headers stays text and runs nothing', async ({}, testInfo) => {
  test.skip(!existsSync(CHROMIUM), 'chromium not installed: apt-get install chromium');
  const evil =
    '<script>window.__pwned=1;document.title="pwned"</script><img src="http://evil.invalid/x.png" onerror="window.__pwned=2"><iframe src="http://evil.invalid/"></iframe>';
  // Every path answers 200 text/html with the payload, in the body and in a header.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'x-evil': evil.replace(/[\r\n]/g, '') });
    res.end(`<html><body>${evil}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dir = mkdtempSync(join(tmpdir(), 'report-hostile-'));
  writeFileSync(
    join(dir, 'target.yaml'),
    [
      `baseUrl: http://127.0.0.1:${port}/v1`,
      'apiKey: ${HOSTILE_KEY}',
      'containerFiles: { containerId: cntr_1 }',
      'modelEndpoints: { model: a/b }',
      'interns: { workspaceId: 45bcb30d-e922-41b6-b4cb-21439c952204 }',
      '',
    ].join('\n'),
  );
  const reportDir = join(dir, 'report');
  const report = await runConformance({
    target: join(dir, 'target.yaml'),
    seed: 7,
    grep: 'files\\.response\\.schema',
    env: { HOSTILE_KEY: 'hostile-test-key-0123456789' },
    reportDir,
  }).finally(() => new Promise<void>((resolve) => server.close(() => resolve())));
  expect(report.verdict).toBe('non-conformant');
  expect(JSON.stringify(report.requirements.flatMap((r) => r.failures ?? []))).toContain('window.__pwned=1');

  const browser = await launch();
  try {
    const { page, attempted } = await openReport(browser, join(reportDir, 'report.html'));
    await page.locator('button[data-show="fail"]').click();
    const evidence = page.locator('details.evidence').first();
    await evidence.locator('summary').click();
    await expect(evidence.locator('pre.response').last()).toContainText('<script>window.__pwned=1;');
    await expect(evidence.locator('pre.response').last()).toContainText('x-evil: <script>');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page).toHaveTitle(/^Conformance 1\.0\.0: non-conformant/);
    expect(await page.locator('main script, main img, main iframe').count()).toBe(0);
    await evidence.locator('pre.response').last().scrollIntoViewIfNeeded();
    const shot = testInfo.outputPath('hostile.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('hostile.png', { path: shot, contentType: 'image/png' });
    expect(attempted, 'requests other than the file:// page').toEqual([]);
  } finally {
    await browser.close();
  }
});
