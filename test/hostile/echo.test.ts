/**
 * A target that echoes the key in every encoding (test/support/echo-server.ts), run through the real
 * CLI: no encoding of either key anywhere in what the run shows or writes (the console, every file of
 * the report directory, everything under the run's TMPDIR: request log, Playwright output), and no
 * terminal control character from the target on the console. Found by a scanner that decodes
 * (test/support/key-scan.ts), written apart from the mask.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { INVISIBLE_CLASS } from '../../core/text/unseen.ts';
import { startEcho, type EchoServer } from '../support/echo-server.ts';
import { runCli } from '../support/harness.ts';
import { HOSTILE_KEYS, stackLines, writeTarget } from '../support/hostile-server.ts';
import { findKeys } from '../support/key-scan.ts';

const servers: EchoServer[] = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const KEYS = Object.values(HOSTILE_KEYS);

/**
 * The checks that carry both keys and other credential schemes (auth), read every kind of body
 * (schemas, error shapes, media type) and follow the echoed cursor (pagination).
 */
const GREP =
  ' (auth\\.|files\\.pagination\\.|(files|models|interns)\\.response\\.schema |(general|files|models|interns)\\.errors\\.shape |general\\.json-media-type )';

/** Regular files under dir, recursively; `skip` names directories not to enter. */
function filesUnder(dir: string, skip: (name: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) {
      if (!skip(name)) out.push(...filesUnder(path, skip));
    } else if (st.isFile()) out.push(path);
  }
  return out;
}

test('a target echoing the key in every encoding: no encoding of either key on the console, in the report directory or anything the run wrote', async () => {
  test.setTimeout(300_000);
  const echo = await startEcho();
  servers.push(echo);
  const tmp = mkdtempSync(join(tmpdir(), 'echo-tmp-'));
  const run = await runCli(['--target', writeTarget(echo.baseUrl), '--timeout', '2000', '--grep', GREP], {
    env: { ...HOSTILE_KEYS, TMPDIR: tmp, CONFORMANCE_KEEP_RUN_DIR: '1' },
    timeoutMs: 280_000,
  });

  expect(stackLines(run)).toEqual([]);
  expect(run.report, run.stderr).toBeDefined();

  // The run did meet the echoes: both keys were sent, and an echoed cursor was followed (otherwise
  // this test would prove nothing).
  const sent = new Set(echo.received.map((r) => r.headers.authorization));
  expect(sent).toContain(`Bearer ${HOSTILE_KEYS.HOSTILE_API_KEY}`);
  expect(sent).toContain(`Bearer ${HOSTILE_KEYS.HOSTILE_RESTRICTED_KEY}`);
  expect(echo.cursorsFollowed().length).toBeGreaterThan(0);

  // Every leak is listed (soft): the failure says which output holds which encoding.
  expect.soft(findKeys(run.stdout + run.stderr, KEYS), 'the console').toEqual([]);
  // Read as UTF-8 (fullwidth, tag characters) and as Latin-1 (raw UTF-16 bytes).
  for (const file of filesUnder(run.reportDir)) {
    for (const encoding of ['utf8', 'latin1'] as const)
      expect.soft(findKeys(readFileSync(file, encoding), KEYS), `${file} (${encoding})`).toEqual([]);
  }
  // The compile caches hold code, not anything of the run: tsx's (tsx-*) this project's sources, and
  // node-compile-cache V8's code of Playwright's bundles (cli/cjs-compile-cache.ts).
  const written = filesUnder(tmp, (name) => name.startsWith('tsx-') || name === 'node-compile-cache');
  // The run kept its directory there (CONFORMANCE_KEEP_RUN_DIR): an empty TMPDIR would scan nothing.
  expect(written.length, 'files the run wrote under its TMPDIR').toBeGreaterThan(0);
  for (const file of written) expect.soft(findKeys(readFileSync(file, 'latin1'), KEYS), file).toEqual([]);
  // The target's escape sequences, carriage returns and C1 CSI never reach the terminal raw.
  expect.soft(run.stdout + run.stderr, 'the console').not.toMatch(/[\u0007\u001b\u009b\u202e]|\r(?!\n)/);
  // Nor does anything that does not show (tag characters, CGJ, variation selectors, Hangul fillers, U+2800).
  expect.soft(run.stdout + run.stderr, 'the console').not.toMatch(new RegExp(`[${INVISIBLE_CLASS}]`, 'u'));
});
