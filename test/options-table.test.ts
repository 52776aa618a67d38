/**
 * cli/options.ts declares each option of the run command once; --help, the programmatic API and the
 * printed replay are read from it. These tests fail when an option is added without its help and
 * default, without its API name (or the reason the API does not take it), or without its place in the
 * replay (or the reason it is not carried).
 */
import { expect, test } from '@playwright/test';
import { ConformanceRunError, runConformance, toArgv } from '../cli/api.ts';
import { BOUNDS, parseCli, USAGE, usageOf } from '../cli/args.ts';
import { declOf, OPTION_NAMES, type OptionName } from '../cli/options.ts';
import { directOptions, DirectRunError } from '../cli/direct-run.ts';
import { replayCommand, settingsOf } from '../cli/prepare-run.ts';

test.describe.configure({ mode: 'parallel' });

/** A valid value of each value option that is no bounded whole number (those take their minimum + 1). */
const SAMPLE: Partial<Record<OptionName, string>> = {
  target: 't.yaml',
  'report-dir': 'out/run',
  grep: '@files',
  shard: '1/2',
  'fail-on': 'should',
  transport: 'playwright',
  'replay-path': '1:0',
  header: 'X-Gateway:${GATEWAY_TOKEN}',
  'allow-host': 'api.example.com:8443',
};

/** A valid value for a value option, as typed. */
function sampleOf(name: OptionName): string {
  const bound = (BOUNDS as Record<string, { min: number; max: number }>)[name];
  const sample = SAMPLE[name] ?? (bound ? String(Math.min(bound.max, bound.min + 1)) : undefined);
  if (sample === undefined) throw new Error(`--${name}: give it a sample value in test/options-table.test.ts`);
  return sample;
}

/** What the run uses when an option is absent, by the option's key: the default --help must state. */
function defaultInUse(key: string): string | undefined {
  const settings = settingsOf(parseCli([]), '/tmp/unused', 1);
  const byKey: Record<string, unknown> = {
    numRuns: settings.numRuns,
    maxRequests: settings.maxRequests,
    concurrency: settings.concurrency,
    timeoutMs: settings.requestTimeoutMs,
    deadlineS: settings.deadlineMs / 1000,
    retryBudgetS: settings.retryBudgetMs / 1000,
    failOn: settings.failOn,
    transport: settings.transport,
  };
  return byKey[key] === undefined ? undefined : String(byKey[key]);
}

test('every option of the table is in --help with its words and, for a value, the default the run uses', () => {
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    const block = usageOf(name);
    expect(USAGE, name).toContain(block);
    expect(block, name).toContain(`--${name}`);
    expect(d.help.trim().length, name).toBeGreaterThan(0);
    for (const line of d.help.split('\n')) expect(block, name).toContain(line);
    if (d.kind === 'value') {
      expect(block, name).toContain(`(default ${d.default})`);
      const inUse = defaultInUse(d.key);
      if (inUse !== undefined) expect(d.default, `--${name} states the default the run uses`).toBe(inUse);
      // An option the run fills in when absent states that value.
      if (d.fill !== undefined) expect(String(d.fill), name).toBe(d.default);
    }
  }
  // The numeric defaults come from the run settings: each is checked above.
  for (const key of ['numRuns', 'maxRequests', 'concurrency', 'timeoutMs', 'deadlineS', 'retryBudgetS'])
    expect(
      OPTION_NAMES.some((n) => declOf(n).key === key),
      key,
    ).toBe(true);
});

test('every option the table gives to the API reaches the parser under its key; the others say why not', async () => {
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    if (d.api !== true) {
      expect(d.api.not.length, `--${name}: why the API does not take it`).toBeGreaterThan(0);
      continue;
    }
    const one = d.kind === 'flag' ? true : d.parse(sampleOf(name));
    const typed = d.kind === 'value' && d.multiple ? [one] : one;
    const argv = toArgv({ [d.key]: typed });
    expect(argv[0], name).toBe(`--${name}`);
    expect((parseCli(argv) as unknown as Record<string, unknown>)[d.key], name).toEqual(typed);
    // A bad value of it is refused by runConformance as by the command, naming the option.
    if (d.kind === 'value') {
      const bad = await runConformance({ [d.key]: '' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(bad, name).toBeInstanceOf(ConformanceRunError);
      expect((bad as Error).message, name).toContain(`--${name}`);
    }
  }
});

test('every option set is carried into the replay unless the table says why not', () => {
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    const argv = d.kind === 'flag' ? [`--${name}`] : [`--${name}`, sampleOf(name)];
    const replay = replayCommand(parseCli(argv), 42);
    const words = replay.split(' ').map((w) => w.replace(/^'(.*)'$/, '$1'));
    if (d.replay === 'carried' || d.replay === 'selection') {
      expect(words, name).toContain(`--${name}`);
      if (d.kind === 'value') expect(words[words.indexOf(`--${name}`) + 1], name).toBe(sampleOf(name));
      if (d.replay === 'selection') expect(replay.endsWith(`--${name} ${sampleOf(name)}`), name).toBe(true);
    } else {
      expect(d.replay.not.length, `--${name}: why the replay does not carry it`).toBeGreaterThan(0);
      // The seed and the report directory are always there: the run's own seed, the report beside it.
      if (name !== 'seed' && name !== 'report-dir') expect(words, name).not.toContain(`--${name}`);
    }
  }
});

// A Playwright run started directly takes the options the table gives a variable (`directEnv`), each
// checked as on the command line and each reaching the run's settings: none taken and then ignored.
test("every option with a directEnv variable reaches a direct run's settings as the option does; a bad value names its variable", () => {
  const comparable = (s: ReturnType<typeof settingsOf>) => ({ ...s, startedAt: 0, replay: '' });
  const base = comparable(settingsOf(directOptions({ CONFORMANCE_SEED: '0' }), '', undefined, {}));
  const taken: string[] = [];
  for (const name of OPTION_NAMES) {
    const d = declOf(name);
    if (d.kind !== 'value' || !d.directEnv) continue;
    taken.push(d.directEnv);
    const seed = name === 'seed' ? {} : { CONFORMANCE_SEED: '0' };
    const direct = directOptions({ ...seed, [d.directEnv]: sampleOf(name) });
    const typed = parseCli([...(name === 'seed' ? [] : ['--seed', '0']), `--${name}`, sampleOf(name)]);
    expect(direct, name).toEqual(typed);
    expect(comparable(settingsOf(direct, '', undefined, {})), `${d.directEnv} changes the run`).not.toEqual(base);
    const variable = d.directEnv;
    expect(() => directOptions({ [variable]: 'x\u0000' }), name).toThrow(new RegExp(`\\(${variable}\\)$`));
  }
  expect(taken.sort()).toEqual([
    'CONFORMANCE_FAIL_ON',
    'CONFORMANCE_HEADERS',
    'CONFORMANCE_MAX_FAILURES',
    'CONFORMANCE_REPORT_DIR',
    'CONFORMANCE_SEED',
    'CONFORMANCE_TARGET',
  ]);
  // A list is one value a line; -x is CONFORMANCE_MAX_FAILURES=1.
  expect(directOptions({ CONFORMANCE_HEADERS: 'X-A:1\r\nX-B:${B_TOKEN}\n\n' }).headers).toEqual([
    'X-A:1',
    'X-B:${B_TOKEN}',
  ]);
  expect(directOptions({ CONFORMANCE_MAX_FAILURES: '1' }).maxFailures).toBe(parseCli(['-x']).maxFailures);
  expect(() => directOptions({ CONFORMANCE_SEED: 'abc' })).toThrow(
    new DirectRunError('--seed takes a whole number from 0 to 4294967295, got "abc" (CONFORMANCE_SEED)'),
  );
});
