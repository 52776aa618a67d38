import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { BOUNDS, CLI_DEFAULTS, OPTION_NAMES, parseCli, USAGE, UsageError } from '../cli/args.ts';
import { replayCommand } from '../cli/prepare-run.ts';
import { runCli } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

/** Values each option must refuse. Every option of the CLI has an entry (the first test checks it). */
const BAD: Record<(typeof OPTION_NAMES)[number], string[][]> = {
  target: [['--target', ''], ['--target', 'a\0b'], ['--target']],
  'report-dir': [['--report-dir', ''], ['--report-dir', 'x\0'], ['--report-dir']],
  seed: [
    ['--seed', '-1'],
    ['--seed', '4294967296'],
    ['--seed', '1e3'],
    ['--seed', '0x10'],
    ['--seed', '1.5'],
    ['--seed', ''],
    ['--seed', '\u001b[2J'],
  ],
  'num-runs': [
    ['--num-runs', '0'],
    ['--num-runs', '10001'],
    ['--num-runs', 'many'],
    ['--num-runs', '99999999999999999999'],
  ],
  'max-requests': [
    ['--max-requests', '0'],
    ['--max-requests', '1000001'],
    ['--max-requests', ' 5'],
  ],
  'max-rps': [
    ['--max-rps', '0'],
    ['--max-rps', '10001'],
    ['--max-rps', '2.5'],
  ],
  concurrency: [
    ['--concurrency', '0'],
    ['--concurrency', '65'],
    ['--concurrency', 'all'],
  ],
  // 2^31 ms is past what a Node timer holds: it would fire after 1 ms.
  timeout: [
    ['--timeout', '0'],
    ['--timeout', '2147483648'],
    ['--timeout', '120001'],
    ['--timeout', '10s'],
  ],
  deadline: [
    ['--deadline', '0'],
    ['--deadline', '3000000'],
    ['--deadline', '3601'],
    ['--deadline', '-5'],
  ],
  'wait-for': [['--wait-for', '0'], ['--wait-for', '3601'], ['--wait-for', '5s'], ['--wait-for']],
  'retry-budget': [['--retry-budget=-1'], ['--retry-budget', '3601'], ['--retry-budget', 'forever']],
  grep: [
    ['--grep', '('],
    ['--grep', '[a-'],
    ['--grep', '/(/'],
    ['--grep', ''],
    ['--grep', 'a'.repeat(1001)],
  ],
  shard: [
    ['--shard', '3/2'],
    ['--shard', '0/2'],
    ['--shard', '1/0'],
    ['--shard', '2'],
    ['--shard', '1/1001'],
    ['--shard', '-1/2'],
    ['--shard', '1/2/3'],
  ],
  'fail-on': [
    ['--fail-on', 'may'],
    ['--fail-on', 'MUST'],
    ['--fail-on', ''],
  ],
  transport: [
    ['--transport', 'curl'],
    ['--transport', ''],
  ],
  'allow-literal-keys': [['--allow-literal-keys=yes']],
  'allow-insecure': [['--allow-insecure=1']],
  'target-outside': [['--target-outside=yes']],
  'report-dir-outside': [['--report-dir-outside=1']],
  'allow-host': [
    ['--allow-host', ''],
    ['--allow-host', 'https://api.example.com'],
    ['--allow-host', 'api.example.com/v1'],
    ['--allow-host', '*.example.com'],
    ['--allow-host', 'api.example.com:0'],
    ['--allow-host', 'api.example.com:99999'],
    ['--allow-host', 'user@api.example.com'],
    ['--allow-host', 'a\u001b[2Jb'],
    ['--allow-host'],
  ],
  'require-all': [['--require-all=true']],
  force: [['--force=no']],
  'dry-run': [['--dry-run=0']],
  'max-failures': [['--max-failures', '0'], ['--max-failures', '1001'], ['--max-failures', 'all'], ['--max-failures']],
  header: [
    ['--header', 'X-Gateway'],
    ['--header', 'Authorization:Bearer x'],
    ['--header', 'host:example.com'],
    ['--header', 'Content-Length:0'],
    ['--header', 'X Gateway:1'],
    ['--header', 'X-Gateway:'],
    ['--header', 'X-Gateway:a\r\nInjected: 1'],
    ['--header', 'X-Gateway:pre-${TOKEN}'],
    ['--header', 'X-A:1', '--header', 'x-a:2'],
    ['--header'],
  ],
  'replay-path': [
    ['--replay-path', 'a:b'],
    ['--replay-path', '1::2'],
    ['--replay-path', ''],
    ['--replay-path', "1' ; rm -rf ~"],
  ],
  help: [['--help=please']],
  version: [['--version=1']],
};

function usageError(argv: string[]): UsageError {
  try {
    parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error(`accepted: ${JSON.stringify(argv)}`);
}

test('every option of the CLI is refused with one line naming it when its value is bad', () => {
  expect(Object.keys(BAD).sort()).toEqual([...OPTION_NAMES].sort());
  for (const [name, cases] of Object.entries(BAD)) {
    for (const argv of cases) {
      const { message } = usageError(argv);
      expect(message, JSON.stringify(argv)).toContain(`--${name}`);
      expect(message, JSON.stringify(argv)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(message.length, JSON.stringify(argv)).toBeLessThan(300);
    }
  }
});

test('numeric options take exactly the range --help states, both ends included', () => {
  const key = {
    seed: 'seed',
    'num-runs': 'numRuns',
    'max-requests': 'maxRequests',
    'max-rps': 'maxRps',
    concurrency: 'concurrency',
    timeout: 'timeoutMs',
    deadline: 'deadlineS',
    'wait-for': 'waitForS',
    'retry-budget': 'retryBudgetS',
  } as const;
  for (const [name, field] of Object.entries(key) as Array<[keyof typeof key, (typeof key)[keyof typeof key]]>) {
    const { min, max } = BOUNDS[name];
    expect(USAGE, name).toContain(`--${name}`);
    expect(USAGE, name).toContain(`${min} to ${max}`);
    expect(parseCli([`--${name}`, String(min)])[field]).toBe(min);
    expect(parseCli([`--${name}`, String(max)])[field]).toBe(max);
    expect(usageError([`--${name}`, String(max + 1)]).message).toContain(`from ${min} to ${max}`);
  }
});

test('--help names every option; the new ones parse into the options the CLI hands on', () => {
  for (const name of OPTION_NAMES) expect(USAGE).toContain(`--${name}`);
  expect(USAGE).toContain(`default ${CLI_DEFAULTS.retryBudgetS}`);
  expect(USAGE).toContain(`N <= ${BOUNDS.shards.max}`);
  const defaults = parseCli([]);
  expect(defaults).toMatchObject({ requireAll: false, force: false, retryBudgetS: CLI_DEFAULTS.retryBudgetS });
  expect(parseCli(['--require-all', '--force', '--retry-budget', '0'])).toMatchObject({
    requireAll: true,
    force: true,
    retryBudgetS: 0,
  });
  // Leading zeros are normalised: the shard names its files (conformance-shard-I-of-N).
  expect(parseCli(['--shard', '02/03']).shard).toBe('2/3');
  expect(parseCli(['--shard', '3/3']).shard).toBe('3/3');
  expect(parseCli(['--grep', '/^interns\\./i']).grep).toBe('/^interns\\./i');
  expect(parseCli(['--replay-path', '3:1:0']).replayPath).toBe('3:1:0');
});

test('what the user typed is shown with its control characters escaped', () => {
  expect(usageError(['--seed', '\u001b[2Jverdict: CONFORMANT']).message).toContain('\\x1b[2J');
  expect(usageError(['--\u001b[31mred']).message).toContain('\\x1b[31m');
  expect(usageError(['--seed', '\u009b2J']).message).toContain('\\x9b');
});

for (const argv of [['--shard', '3/2'], ['--timeout', '2147483648'], ['--grep', '('], ['--no-such-option']]) {
  test(`the CLI given ${argv.join(' ')} prints one line and exits 2 before doing anything`, async () => {
    const run = await runCli(argv, { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(argv[0]);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    // Refused before any target is started or any report is written.
    expect(readdirSync(run.reportDir)).toEqual([]);
  });
}

// No quietly weaker green. --replay-path replays one property's counterexample; over any
// other selection it would narrow nothing and read as a full run: refused in one line, exit 2.
test('--replay-path without a --grep that selects exactly one property check is refused in one line, exit 2', async () => {
  for (const args of [
    ['--replay-path', '1:0'],
    ['--replay-path', '1:0', '--grep', ' files\\.'],
    ['--replay-path', '1:0', '--grep', '(^| )general\\.base-url-v1( |$)'],
  ]) {
    const run = await runCli(args, { timeoutMs: 60_000 });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    const lines = run.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
    expect(lines, args.join(' ')).toHaveLength(1);
    expect(lines[0]).toContain('--replay-path replays one counterexample of one property');
    expect(run.report).toBeUndefined();
  }
});

// A negative number after an option is that option's value, with the usual one line.
test('a negative number as an option value gets the option\'s own one line, not "argument is ambiguous"', () => {
  for (const name of ['max-requests', 'deadline', 'seed']) {
    expect(() => parseCli([`--${name}`, '-5'])).toThrow(new RegExp(`^--${name} takes`));
  }
});

// The replay is built from the options given, not from a list of them: any option that
// shapes the run (one added later included) is carried, with its value as checked.
test('the replay carries every option given but those that do not shape the run, and writes to <report-dir>-replay', () => {
  const SAMPLE: Partial<Record<(typeof OPTION_NAMES)[number], string>> = {
    target: 't.yaml',
    'fail-on': 'should',
    transport: 'playwright',
    grep: '@files',
    shard: '1/2',
    'replay-path': '1:0',
    'report-dir': 'out/run',
    header: 'X-Gateway:${GATEWAY_TOKEN}',
    'allow-host': 'API.example.com:8443',
  };
  const NOT_CARRIED = new Set(['report-dir', 'force', 'dry-run', 'help', 'version', 'seed', 'replay-path']);
  const argv: string[] = [];
  for (const name of OPTION_NAMES) {
    if (name === 'help' || name === 'dry-run' || name === 'version') continue;
    const bound = (BOUNDS as Record<string, { min: number; max: number }>)[name];
    const value = SAMPLE[name] ?? (bound ? String(Math.min(bound.max, bound.min + 1)) : undefined);
    argv.push(`--${name}`, ...(value === undefined ? [] : [value]));
  }
  const opts = parseCli(argv);
  const replay = replayCommand(opts, 42);
  for (const name of OPTION_NAMES) {
    if (name === 'help' || name === 'dry-run' || name === 'version') continue;
    if (NOT_CARRIED.has(name)) continue;
    expect(replay, name).toContain(`--${name}`);
  }
  expect(replay).toContain('--seed 42');
  expect(replay).not.toContain('--force');
  expect(replay).not.toContain('--replay-path');
  expect(replay).toMatch(/--report-dir out\/run-replay /);
  expect(replay).toMatch(/--grep @files --shard 1\/2$/);
  // Parsed back, the replay is the same run (seed given, report beside).
  const back = parseCli(
    replay
      .split(' ')
      .slice(4)
      .map((w) => w.replace(/^'(.*)'$/, '$1')),
  );
  expect({
    ...back,
    given: undefined,
    reportDir: undefined,
    seed: undefined,
    force: undefined,
    replayPath: undefined,
  }).toEqual({
    ...opts,
    given: undefined,
    reportDir: undefined,
    seed: undefined,
    force: undefined,
    replayPath: undefined,
  });
});

// A CI job starts the service, then the suite: --wait-for waits until the base URL answers.
test('--wait-for waits for a service that starts listening late, then runs; one that never answers is one line, exit 2', async () => {
  test.slow();
  const { createServer } = await import('node:net');
  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
  const [port, regionalPort] = [await freePort(), await freePort()];
  const { startReference } = await import('../reference/server.ts');
  const { referenceKeyEnv, referenceTargetYaml } = await import('../reference/target-file.ts');
  // The target file of a reference on those ports, then nothing listening there.
  const probe = await startReference({ port, regionalPort });
  const yaml = referenceTargetYaml(probe);
  const env = referenceKeyEnv(probe);
  await probe.close();
  const dir = mkdtempSync(join(tmpdir(), 'wait-for-'));
  writeFileSync(join(dir, 't.yaml'), yaml);

  let late: Awaited<ReturnType<typeof startReference>> | undefined;
  const starting = new Promise<void>((resolve) =>
    setTimeout(() => void startReference({ port, regionalPort }).then((s) => ((late = s), resolve())), 3_000),
  );
  try {
    const run = await runCli(
      ['--target', join(dir, 't.yaml'), '--seed', '3', '--grep', 'general.base-url-v1', '--wait-for', '60'],
      { env, timeoutMs: 120_000 },
    );
    await starting;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^waiting up to 60 s for http:\/\/127\.0\.0\.1:\d+\/v1 to answer \(--wait-for\)$/m);
    expect(run.stdout).toMatch(/^target answered \(HTTP 401\) after \d+\.\d s, \d+ attempt\(s\)$/m);
    expect(run.report?.verdict).toBe('conformant');
    // The wait counted in the run's replay (and so in its deadline when replayed).
    expect(run.report?.run.replay).toContain('--wait-for 60');
  } finally {
    await late?.close();
  }
  // Nothing listening, ever: bounded by --wait-for, one line, exit 2.
  const never = await runCli(['--target', join(dir, 't.yaml'), '--seed', '3', '--wait-for', '2'], {
    env,
    timeoutMs: 60_000,
  });
  expect(never.code).toBe(2);
  expect(never.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(
      /^conformance: target http:\/\/127\.0\.0\.1:\d+\/v1 did not answer within --wait-for 2 s \(\d+ attempts in \d+\.\d s, last: ECONNREFUSED\): nothing judged$/,
    ),
  ]);
  // Within the run's deadline: a --wait-for past it ends at the deadline.
  const capped = await runCli(['--target', join(dir, 't.yaml'), '--seed', '3', '--wait-for', '60', '--deadline', '3'], {
    env,
    timeoutMs: 60_000,
  });
  expect(capped.code).toBe(2);
  expect(capped.stderr).toMatch(
    /^conformance: the suite's deadline of 3 s passed while waiting for http:\/\/127\.0\.0\.1:\d+ to answer \(--wait-for 60;/,
  );
});

test('--version prints the suite and the service document versions, exit 0, and writes no report', async () => {
  const run = await runCli(['--version'], { timeoutMs: 60_000 });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(
    /^conformance-suite \d+\.\d+\.\d+( \([0-9a-f]{7,}(-dirty)?\))?, service document \d+\.\d+\.\d+\n$/,
  );
  expect(run.stderr).toBe('');
  expect(readdirSync(run.reportDir)).toEqual([]);
});
