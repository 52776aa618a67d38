/**
 * cli/jit-tiering.ts: the command's process gives a function to TurboFan later than Node does, and a
 * value the user gave node is kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { laterTiering, TIERING_SCALE, tieringFlag } from '../cli/jit-tiering.ts';
import { scriptCommand } from './support/build.ts';
import { ROOT, spawned, type Spawned } from './support/harness.ts';

/**
 * Run in a process as it ends (after the command's modules ran): how many calls of a small function
 * before TurboFan has it. Optimisation is synchronous (--no-concurrent-recompilation), so the count
 * does not depend on the machine's speed.
 */
const PROBE = [
  "process.on('exit', () => {",
  "  const status = new Function('f', 'return %GetOptimizationStatus(f)');",
  '  function hot(a) { let s = 0; for (let i = 0; i < 8; i++) s += (a + i) % 7; return s; }',
  '  let n = 0;',
  // Bit 6 of V8's status: TurboFan's code.
  '  while (n < 5_000_000 && (status(hot) & 64) === 0) { hot(n); n++; }',
  '  process.stderr.write(`calls before TurboFan: ${n}\\n`);',
  '});',
].join('\n');

async function callsBeforeTurbofan(command: readonly string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-tiering-'));
  const probe = join(dir, 'probe.mjs');
  writeFileSync(probe, PROBE);
  const [node, ...rest] = command;
  let run: Spawned;
  try {
    run = await spawned(
      node!,
      ['--allow-natives-syntax', '--no-concurrent-recompilation', '--import', pathToFileURL(probe).href, ...rest],
      { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' }, timeoutMs: 60_000 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const found = /calls before TurboFan: (\d+)/.exec(run.stderr);
  expect(found, run.stderr).not.toBeNull();
  // V8 names a flag it does not know on stderr: the command's flag is one it knows.
  expect(run.stderr).not.toContain('unrecognized flag');
  return Number(found![1]);
}

test('the command (`conformance --help`) gives TurboFan a function after many more calls than Node does', async () => {
  test.skip(
    tieringFlag() === undefined,
    `V8 ${process.versions.v8}'s tiering flags have not been read (cli/jit-tiering.ts): the command leaves Node's default`,
  );
  const node = await callsBeforeTurbofan([process.execPath, '-e', '0']);
  // A function called once is not TurboFan's: where the probe says so, it does not read this V8's status (bit 6 in V8 11 to 13).
  test.skip(node <= 1, `V8 ${process.versions.v8}'s optimisation status has TurboFan elsewhere than the probe reads`);
  const command = await callsBeforeTurbofan([...scriptCommand(ROOT, 'cli/main.ts'), '--help']);
  // 16 times the work in the flag; V8's own heuristics blur the count, not by a factor of four.
  expect(command, `node alone: ${node} calls`).toBeGreaterThanOrEqual(node * (TIERING_SCALE / 4));
});

test("the flag is V8's own for each version read, and a value given to node is the user's", () => {
  expect(tieringFlag('11.3.244.8-node.38')).toBe('--interrupt-budget=1081344');
  expect(tieringFlag('12.4.254.21-node.57')).toBe('--invocation-count-for-turbofan=48000');
  expect(tieringFlag('14.1.146.11-node.25')).toBe('--invocation-count-for-turbofan=48000');
  // Not read: no flag guessed.
  expect(tieringFlag('11.8.172.17-node.24')).toBeUndefined();
  expect(tieringFlag('15.0.1')).toBeUndefined();
  const v8On20 = '11.3.244.8-node.38';
  expect(laterTiering(['--interrupt-budget=5000'], v8On20)).toBeUndefined();
  expect(laterTiering(['--interrupt_budget', '5000'], v8On20)).toBeUndefined();
  expect(laterTiering(['--invocation-count-for-turbofan=10'], '12.4.254.21-node.57')).toBeUndefined();
  expect(laterTiering([], '15.0.1')).toBeUndefined();
  // Another flag given to node leaves the command's to be set (this V8's own, so that setting it is quiet).
  const flag = tieringFlag();
  if (flag) expect(laterTiering(['--interrupt-budget-for-maglev=1', '--max-old-space-size=512'])).toBe(flag);
});
