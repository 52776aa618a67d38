import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { estimateOf } from '../core/check/check.ts';
import { Client } from '../core/http/client.ts';
import type { Engine } from '../core/run/engine.ts';
import { DEFAULTS } from '../core/run/run-settings.ts';
import { NodeTransport } from '../core/http/transport.ts';
import type { ReferenceServer } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { ALL_CHECKS } from '../suites/checks/index.ts';
import suitesConfig from '../playwright.config.ts';
import { runCli, runEngineAgainst, testSettings, type CliRun } from './support/harness.ts';
import {
  HOSTILE_KEYS,
  hostileTarget,
  OK_JSON,
  stackLines,
  startHostile,
  stderrLines,
  writeTarget,
  writeTargetYaml,
  type Action,
  type HostileServer,
} from './support/hostile-server.ts';

// Safe on production: only GET on the three documented paths under the base URL, within the request
// budget and the rate limit; --dry-run sends nothing; no key ever reaches the console, the report,
// the request log or Playwright's output; bad input is one line and exit 2 before any request.
test.describe.configure({ mode: 'parallel' });

const servers: Array<HostileServer | ReferenceServer> = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function reference(): Promise<{ server: ReferenceServer; file: string; env: Record<string, string> }> {
  const server = await startReference();
  servers.push(server);
  return { server, file: writeTargetYaml(referenceTargetYaml(server)), env: referenceKeyEnv(server) };
}

async function recorder(action: Action = OK_JSON): Promise<HostileServer> {
  const server = await startHostile(action);
  servers.push(server);
  return server;
}

/** Section 4: the three documented templates under {base_url} = /v1 (section 9 rule 1). */
const DOCUMENTED = [
  /^\/v1\/containers\/[^/?#]+\/files(\?[^#]*)?$/,
  /^\/v1\/models\/[^/?#]+\/[^/?#]+\/endpoints$/,
  /^\/v1\/interns(\?[^#]*)?$/,
];

function oneLineRefusal(run: CliRun): string {
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  expect(run.report).toBeUndefined();
  const lines = stderrLines(run);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

// ---- what the suite sends ---------------------------------------------------------------------

test('the whole suite sends only GET, only on the three documented paths under the base URL, and logs every request', async () => {
  const { server, file, env } = await reference();
  const run = await runCli(['--target', file], { env, timeoutMs: 110_000 });
  expect(stackLines(run)).toEqual([]);
  expect([0, 1]).toContain(run.code);
  expect(server.received.length).toBeGreaterThan(ALL_CHECKS.length / 2);
  const off = server.received.filter((r) => r.method !== 'GET' || !DOCUMENTED.some((re) => re.test(r.url)));
  expect(off).toEqual([]);
  // Every request that reached the target is in the request log the report counts (the preflight too).
  expect(run.report?.run.requests).toBe(server.received.length);
  // The --dry-run plan is an estimate a user sizes --max-requests by: within a factor of 2 of the truth.
  const plan = await runCli(['--target', file, '--dry-run'], { env, timeoutMs: 60_000 });
  const estimate = Number(/^estimated requests: ~(\d+)/m.exec(plan.stdout)?.[1]);
  expect(estimate).toBeGreaterThan(server.received.length / 2);
  expect(estimate).toBeLessThan(server.received.length * 2);
});

test('the client refuses a path parameter that would leave the documented path, and a base URL the target file does not name', async () => {
  const server = await recorder();
  const runDir = mkdtempSync(join(tmpdir(), 'safety-client-'));
  const transport = new NodeTransport({ timeoutMs: 2_000, bodyCapBytes: 1024 });
  const client = new Client(hostileTarget(server.baseUrl), testSettings(runDir), transport);
  try {
    await expect(client.listContainerFiles('..')).rejects.toThrow(
      /refuses GET .*a path parameter would leave the documented path \(\/v1\/files\)/,
    );
    await expect(client.listContainerFiles('.')).rejects.toThrow(/refuses GET/);
    await expect(client.listModelEndpoints('../..')).rejects.toThrow(/refuses GET/);
    await expect(client.listInterns({}, 'key', 'http://127.0.0.1:9/v1')).rejects.toThrow(
      /refuses http:\/\/127\.0\.0\.1:9\/v1: it is not a base URL of the target file/,
    );
    // Percent-encoded, a dot or a slash inside a parameter stays inside its segment: sent as is.
    await client.listContainerFiles('a/../b');
    await client.listContainerFiles('%2e%2e');
    expect(server.received.map((r) => r.url)).toEqual([
      '/v1/containers/a%2F..%2Fb/files',
      '/v1/containers/%252e%252e/files',
    ]);
  } finally {
    await transport.close();
  }
});

test('--max-requests N: at most N requests in all (the preflight included), the report names the checks cut short, and the run is incomplete (exit 2), never green', async () => {
  const { server, file, env } = await reference();
  const run = await runCli(['--target', file, '--max-requests', '6'], { env, timeoutMs: 110_000 });
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(2);
  expect(run.report?.verdict).toBe('incomplete');
  expect(run.report?.run.incomplete).toMatch(/^\d+ MUST requirement\(s\) not judged: .*request budget of 6 spent/);
  expect(run.stdout).toMatch(/verdict: INCOMPLETE — \d+ MUST requirement\(s\) not judged/);
  expect(readFileSync(join(run.reportDir, 'badge.svg'), 'utf8')).toContain('incomplete');
  expect(server.received.length).toBeLessThanOrEqual(6);
  expect(run.report?.run.requests).toBe(server.received.length);
  const cut = run.report!.run.budgetExhausted;
  expect(cut.length).toBeGreaterThan(0);
  for (const id of cut) {
    const check = run.report!.checks.find((c) => c.checkId === id)!;
    expect(check.status).toBe('skip');
    expect(check.reason).toMatch(/^request budget of 6 spent before (GET \/v1\/|the full listing)/);
  }
});

test('--max-rps 20: requests never leave faster than 20 per second, whatever the concurrency', async () => {
  // The pace is the client's: the instants it let each request leave, across every check in flight,
  // are 50 ms apart or more (its own schedule, not arrival times a loaded machine jitters). runConformance
  // and the command hand --max-rps to the same engine (test/cli-options.test.ts, test/api.test.ts).
  let engine: Engine | undefined;
  const report = await runEngineAgainst(
    {},
    {
      settings: { maxRps: 20, concurrency: DEFAULTS.concurrency },
      select: (id) => /^(models|interns)\./.test(id),
      engine: (e) => (engine = e),
    },
  );
  expect(['conformant', 'non-conformant']).toContain(report.verdict);
  const slots = engine!.state.slots;
  expect(slots.length).toBe(report.run.requests);
  expect(slots.length).toBeGreaterThan(20);
  expect(Math.min(...slots.slice(1).map((s, i) => s - slots[i]!))).toBeGreaterThanOrEqual(50);
});

test('--dry-run prints the plan (checks, kinds, estimated requests) and sends nothing', async () => {
  const server = await recorder();
  const run = await runCli(
    ['--target', writeTarget(server.baseUrl), '--dry-run', '--num-runs', '7', '--max-requests', '10'],
    { env: { ...HOSTILE_KEYS }, timeoutMs: 60_000 },
  );
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe('');
  expect(server.received).toEqual([]);
  expect(run.report).toBeUndefined();
  expect(run.stdout).toMatch(
    new RegExp(`^plan: ${ALL_CHECKS.length} of ${ALL_CHECKS.length} checks \\(\\d+ properties, 7 runs each\\)`, 'm'),
  );
  for (const c of ALL_CHECKS)
    expect(run.stdout).toMatch(
      new RegExp(`^  \\S+ +${c.kind ?? 'check'} +(~\\d+|skip)  ${c.id.replace(/\./g, '\\.')}  `, 'm'),
    );
  expect(run.stdout).toMatch(/^estimated requests: ~\d+ \(preflight included\), request budget 10$/m);
  expect(run.stdout).toMatch(/^the estimate is over the budget/m);
  expect(run.stdout).toMatch(/^dry run: no request sent$/m);
});

test('the plan estimates requests per kind: a declared estimate, else check 2, observation 1, property 2 per run', () => {
  const base = { id: 'x', title: 'x', operation: 'general' as const, requirements: [], probe: async () => {} };
  expect(estimateOf({ ...base }, 20)).toBe(2);
  expect(estimateOf({ ...base, kind: 'observation' }, 20)).toBe(1);
  expect(estimateOf({ ...base, kind: 'property' }, 20)).toBe(40);
  expect(estimateOf({ ...base, kind: 'property', estimatedRequests: 3 }, 5)).toBe(15);
  expect(estimateOf({ ...base, kind: 'check', estimatedRequests: 9 }, 5)).toBe(9);
});

// ---- secrets ------------------------------------------------------------------------------------

/** Every form of the keys that would be a leak: as sent, as base64 (Basic) forms, and spaced out. */
function secretForms(keys: string[]): string[] {
  return keys.flatMap((k) => [
    k,
    Buffer.from(k).toString('base64'),
    Buffer.from(`${k}:`).toString('base64'),
    spaced(k, ' '),
    spaced(k, '.'),
  ]);
}

/** The key's characters apart, as a person reads a key spaced out. */
const spaced = (k: string, separator: string) => [...k].join(separator);

/** Files under dir (recursively) whose bytes contain one of the secrets; `skip` names directories not to enter. */
function filesHolding(dir: string, secrets: string[], skip: (name: string) => boolean = () => false): string[] {
  const found: string[] = [];
  const needles = secrets.map((s) => Buffer.from(s, 'utf8'));
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (!skip(name)) walk(p);
      } else if (st.isFile()) {
        const bytes = readFileSync(p);
        if (needles.some((n) => bytes.includes(n))) found.push(p);
      }
    }
  };
  walk(dir);
  return found;
}

/** Runs the CLI with its run directory kept in a temp dir of the test's own, to audit what it wrote. */
async function auditedRun(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 110_000,
): Promise<{ run: CliRun; tmp: string; runDir: string }> {
  const tmp = mkdtempSync(join(tmpdir(), 'safety-tmp-'));
  const run = await runCli(args, { env: { ...env, TMPDIR: tmp, CONFORMANCE_KEEP_RUN_DIR: '1' }, timeoutMs });
  const runDir = readdirSync(tmp)
    .filter((n) => n.startsWith('conformance-run-'))
    .map((n) => join(tmp, n))[0]!;
  return { run, tmp, runDir };
}

test('no key in the console, the report, the request log or Playwright output (reference, --transport playwright)', async () => {
  const { server, file, env } = await reference();
  const { run, tmp, runDir } = await auditedRun(['--target', file, '--transport', 'playwright'], env);
  expect(stackLines(run)).toEqual([]);
  expect(run.report).toBeDefined();
  expect(existsSync(join(runDir, 'requests.jsonl'))).toBe(true);
  const secrets = secretForms([server.keys.management, server.keys.restricted]);
  for (const s of secrets) expect(run.stdout + run.stderr).not.toContain(s);
  expect(filesHolding(run.reportDir, secrets)).toEqual([]);
  // tsx's compile cache (tsx-*) holds the reference's own source, whose keys are constants there.
  expect(filesHolding(tmp, secrets, (name) => name.startsWith('tsx-'))).toEqual([]);
  // Traces would hold the request headers: the suite's Playwright config keeps them off.
  expect(suitesConfig.use?.trace).toBe('off');
});

test('no key leaks when the target echoes it back (body, headers, redirect Location), also spaced out: every byte the run wrote is clean', async () => {
  const server = await recorder();
  const echo = await startHostile((req, i): Action => {
    const auth = String(req.headers.authorization ?? 'none');
    if (i % 3 === 0)
      return {
        kind: 'raw',
        body: `${auth} <html>echo ${auth} ${spaced(auth, ' ')}</html>`,
        headers: { 'content-type': 'text/html', 'x-echo': auth },
      };
    if (i % 3 === 1)
      return {
        kind: 'json',
        status: 401,
        body: { error: { code: 401, message: `invalid key ${auth} (${spaced(auth, '.')})` } },
        headers: { 'www-authenticate': auth },
      };
    return { kind: 'redirect', location: `${server.baseUrl}/interns?token=${encodeURIComponent(auth)}&raw=${auth}` };
  });
  servers.push(echo);
  const grep = ['--grep', ' (auth\\.|(files|models|interns)\\.response\\.schema )'];
  const { run, tmp } = await auditedRun(['--target', writeTarget(echo.baseUrl), '--timeout', '2000', ...grep], {
    ...HOSTILE_KEYS,
  });
  expect(stackLines(run)).toEqual([]);
  expect(run.code).toBe(1);
  // Both keys were sent (and so echoed): otherwise this test would prove nothing.
  const sent = new Set(echo.received.map((r) => r.headers.authorization));
  expect(sent).toContain(`Bearer ${HOSTILE_KEYS.HOSTILE_API_KEY}`);
  expect(sent).toContain(`Bearer ${HOSTILE_KEYS.HOSTILE_RESTRICTED_KEY}`);
  expect(server.received).toEqual([]);
  const secrets = secretForms(Object.values(HOSTILE_KEYS));
  for (const s of secrets) expect(run.stdout + run.stderr).not.toContain(s);
  expect(run.stdout).toContain('$API_KEY');
  expect(filesHolding(run.reportDir, secrets)).toEqual([]);
  // These keys exist only in the test process and the environment: nothing at all under TMPDIR holds them.
  expect(filesHolding(tmp, secrets)).toEqual([]);
});

test('a weak key (shorter than 8 characters) is warned of at load and in the report, naming its field, and never printed where it stands as the key', async () => {
  const weak = 'Q7z-x';
  const server = await recorder();
  const env = { ...HOSTILE_KEYS, HOSTILE_API_KEY: weak };
  const plan = await runCli(['--target', writeTarget(server.baseUrl), '--dry-run'], { env, timeoutMs: 60_000 });
  expect(stackLines(plan)).toEqual([]);
  expect(plan.code).toBe(0);
  const says =
    /^warning: apiKey of the target file is shorter than 8 characters or one of the document's words: masking it everywhere would hide the document's words; it is masked only where it stands as the key/m;
  expect(plan.stdout).toMatch(says);
  expect(plan.stdout).not.toMatch(/restrictedApiKey of the target file/);
  expect(plan.stdout + plan.stderr).not.toContain(weak);
  expect(server.received).toEqual([]);
  const run = await runCli(['--target', writeTarget(server.baseUrl), '--grep', 'files.limit.bounds'], {
    env,
    timeoutMs: 110_000,
  });
  expect(stackLines(run)).toEqual([]);
  expect(run.stdout).toMatch(says);
  expect(run.report?.run.warnings).toEqual([expect.stringMatching(/^apiKey of the target file is shorter/)]);
  expect(new Set(server.received.map((r) => r.headers.authorization))).toContain(`Bearer ${weak}`);
  for (const s of [`Bearer ${weak}`, `"${weak}"`]) expect(run.stdout + run.stderr).not.toContain(s);
  expect(filesHolding(run.reportDir, [`Bearer ${weak}`, `"${weak}"`])).toEqual([]);
});

// ---- refusals before any request -------------------------------------------------------------

test('a key written literally is refused in one line, and accepted with --allow-literal-keys (and still never printed)', async () => {
  const { server, file } = await reference();
  const literal = readFileSync(file, 'utf8')
    .replace(/\$\{CONFORMANCE_REFERENCE_API_KEY\}/, server.keys.management)
    .replace(/\$\{CONFORMANCE_REFERENCE_RESTRICTED_KEY\}/, server.keys.restricted);
  const literalFile = writeTargetYaml(literal);
  const refused = await runCli(['--target', literalFile], { env: {}, timeoutMs: 60_000 });
  expect(oneLineRefusal(refused)).toMatch(
    /^conformance: target file \S+: apiKey is written literally; write \$\{ENV_VAR\} and set the variable, or pass --allow-literal-keys$/,
  );
  expect(refused.stderr).not.toContain(server.keys.management);
  const before = server.received.length;
  expect(before).toBe(0);

  // The auth checks send both keys (and keys the target must refuse): what could print them.
  const accepted = await runCli(['--target', literalFile, '--allow-literal-keys', '--grep', 'auth\\.'], {
    env: {},
    timeoutMs: 110_000,
  });
  expect(stackLines(accepted)).toEqual([]);
  expect([0, 1]).toContain(accepted.code);
  expect(server.received.length).toBeGreaterThan(0);
  // The restricted key was read from the file and sent: its checks were judged on the target's 403s.
  expect(
    accepted.report?.checks.filter((c) => c.checkId.startsWith('auth.restricted.') && c.status === 'pass'),
  ).not.toEqual([]);
  const secrets = secretForms([server.keys.management, server.keys.restricted]);
  for (const s of secrets) expect(accepted.stdout + accepted.stderr).not.toContain(s);
  expect(filesHolding(accepted.reportDir, secrets)).toEqual([]);
});

test('a target file naming ${SOME_SECRET} in containerId is refused with exit 2, and the secret appears in no output', async () => {
  const { server, file, env } = await reference();
  const secret = 'ci-deploy-secret-9f3a7c21';
  const hostile = writeTargetYaml(
    readFileSync(file, 'utf8').replace(/^( {2}containerId:) .*$/m, '$1 "${SOME_SECRET}"'),
  );
  const refused = await runCli(['--target', hostile], { env: { ...env, SOME_SECRET: secret }, timeoutMs: 60_000 });
  expect(oneLineRefusal(refused)).toMatch(
    /^conformance: target file \S+: containerFiles\.containerId names the environment variable SOME_SECRET; only apiKey and restrictedApiKey read the environment \(write the value itself\)$/,
  );
  expect(server.received).toHaveLength(0);
  const forms = secretForms([secret]);
  for (const s of forms) expect(refused.stdout + refused.stderr).not.toContain(s);
  expect(filesHolding(refused.reportDir, forms)).toEqual([]);
});

test('plain http:// to a host other than loopback is refused before any request, unless --allow-insecure', async () => {
  // --dry-run everywhere: even if the refusal were broken, nothing would be sent to that host.
  const insecure = writeTarget('http://api.example.com/v1');
  const refused = await runCli(['--target', insecure, '--dry-run'], { env: { ...HOSTILE_KEYS }, timeoutMs: 60_000 });
  expect(oneLineRefusal(refused)).toMatch(
    /^conformance: target file \S+: baseUrl uses plain http:\/\/ to api\.example\.com; the bearer key would travel in clear text \(pass --allow-insecure to accept\)$/,
  );
  const regional = writeTarget('https://api.example.com/v1', {
    edit: (y) => y.replace('interns:\n', 'interns:\n  regionalBaseUrl: http://eu.api.example.com/v1\n'),
  });
  expect(
    oneLineRefusal(await runCli(['--target', regional, '--dry-run'], { env: { ...HOSTILE_KEYS }, timeoutMs: 60_000 })),
  ).toMatch(/interns\.regionalBaseUrl uses plain http:\/\/ to eu\.api\.example\.com/);
  const accepted = await runCli(
    ['--target', insecure, '--dry-run', '--allow-insecure', '--allow-host', 'api.example.com'],
    {
      env: { ...HOSTILE_KEYS },
      timeoutMs: 60_000,
    },
  );
  expect(stackLines(accepted)).toEqual([]);
  expect(accepted.code).toBe(0);
  expect(accepted.stdout).toMatch(/^dry run: no request sent$/m);
});

const BAD_INPUT: Array<{ name: string; edit: (yaml: string) => string; env?: Record<string, string>; says: RegExp }> = [
  // Optional fields too are suggested, by the schema's own names ("did you mean" for slips of any field).
  {
    name: 'a misspelt optional field',
    edit: (y) => y.replace('restrictedApiKey:', 'restrictedApiKy:'),
    says: /: unknown field restrictedApiKy \(did you mean restrictedApiKey\?\)$/,
  },
  {
    name: 'a misspelt nested field',
    edit: (y) => y.replace('  model: hostile/model', '  model: hostile/model\n  missingModle: nobody/nothing'),
    says: /: unknown field modelEndpoints\.missingModle \(did you mean modelEndpoints\.missingModel\?\)$/,
  },
  {
    name: 'a case slip in an optional field',
    edit: (y) => y.replace('restrictedApiKey:', 'restrictedApikey:'),
    says: /: unknown field restrictedApikey \(did you mean restrictedApiKey\?\)$/,
  },
  {
    name: 'a name unlike any field',
    edit: (y) => y.replace('  model: hostile/model', '  model: hostile/model\n  colour: blue'),
    says: /: unknown field modelEndpoints\.colour$/,
  },
  // A misspelt required field is reported as the field that is then missing.
  {
    name: 'a misspelt required field',
    edit: (y) => y.replace('baseUrl:', 'basUrl:'),
    says: /: unknown field basUrl \(did you mean baseUrl\?\)$/,
  },
  {
    name: 'an unset environment variable',
    edit: (y) => y.replace('${HOSTILE_API_KEY}', '${HOSTILE_UNSET_VARIABLE}'),
    says: /: apiKey: environment variable HOSTILE_UNSET_VARIABLE is not set$/,
  },
  // A value of the wrong shape is said in the document's words, not as the schema's pattern.
  {
    name: 'a base URL without its scheme',
    edit: (y) => y.replace(/^baseUrl: http:\/\//m, 'baseUrl: '),
    says: /: baseUrl must be an http:\/\/ or https:\/\/ URL, \{base_url\} including \/v1 \(section 9\)$/,
  },
  {
    name: 'a model without its author',
    edit: (y) => y.replace('  model: hostile/model', '  model: model'),
    says: /: modelEndpoints\.model must be shaped <author>\/<slug> \(4\.2\)$/,
  },
  // A CI secret that is not defined reaches the job as an empty variable: said as empty, not as unset.
  {
    name: 'an environment variable set to nothing',
    edit: (y) => y.replace('${HOSTILE_API_KEY}', '${HOSTILE_EMPTY_VARIABLE}'),
    env: { HOSTILE_EMPTY_VARIABLE: '' },
    says: /: apiKey: environment variable HOSTILE_EMPTY_VARIABLE is set but empty$/,
  },
  {
    name: 'invalid YAML',
    edit: (y) => y.replace('containerFiles:', 'containerFiles: [oops'),
    says: /: not valid YAML/,
  },
];

for (const { name, edit, env, says } of BAD_INPUT) {
  test(`a target file with ${name}: one line naming it, exit 2, nothing sent`, async () => {
    const server = await recorder();
    const run = await runCli(['--target', writeTarget(server.baseUrl, { edit })], {
      env: { ...HOSTILE_KEYS, ...env },
      timeoutMs: 60_000,
    });
    expect(oneLineRefusal(run)).toMatch(new RegExp(`^conformance: target file \\S+${says.source}`));
    expect(server.received).toEqual([]);
  });
}

test('an unreachable base URL (a closed loopback port): one line, exit 2, before any check runs', async () => {
  const closed = await startHostile(OK_JSON);
  await closed.close();
  // A hang would be killed at the bound (exit code null, not 2); no report: no check ran.
  const run = await runCli(['--target', writeTarget(closed.baseUrl)], { env: { ...HOSTILE_KEYS }, timeoutMs: 30_000 });
  expect(oneLineRefusal(run)).toBe(`conformance: target ${closed.baseUrl} is unreachable: connection refused`);
});

for (const [args, says] of [
  [['--no-such-option'], /^conformance: unknown option --no-such-option \(see --help\)$/],
  [
    ['--max-requests', 'lots'],
    /^conformance: --max-requests takes a whole number from 1 to 1000000, got "lots" \(see --help\)$/,
  ],
  [
    ['--grep', '(unclosed'],
    /^conformance: --grep takes a regular expression, got "\(unclosed", which is not one: Unterminated group \(see --help\)$/,
  ],
] as const) {
  test(`command line ${args.join(' ')}: one line, exit 2`, async () => {
    const run = await runCli([...args], { timeoutMs: 30_000 });
    expect(oneLineRefusal(run)).toMatch(says);
  });
}

// NODE_TLS_REJECT_UNAUTHORIZED=0 turns certificate checks off for the whole process; the
// run says so on the console and in every report, never accepts it without a word.
test('NODE_TLS_REJECT_UNAUTHORIZED=0 is said on the console and in the report', async () => {
  const { file, env } = await reference();
  const run = await runCli(['--target', file, '--grep', 'files.limit.bounds'], {
    env: { ...env, NODE_TLS_REJECT_UNAUTHORIZED: '0' },
    timeoutMs: 110_000,
  });
  expect(stackLines(run)).toEqual([]);
  expect(run.stdout).toMatch(/^warning: TLS certificates were not verified \(NODE_TLS_REJECT_UNAUTHORIZED=0\)/m);
  expect(run.report?.run.warnings).toEqual([expect.stringMatching(/^TLS certificates were not verified/)]);
  expect(readFileSync(join(run.reportDir, 'summary.md'), 'utf8')).toMatch(
    /^> \*\*Warning:\*\* TLS certificates were not verified/m,
  );
  expect(readFileSync(join(run.reportDir, 'report.html'), 'utf8')).toContain('TLS certificates were not verified');
  const plain = await runCli(['--target', file, '--grep', 'files.limit.bounds'], { env, timeoutMs: 110_000 });
  expect(plain.report?.run.warnings).toBeUndefined();
  expect(plain.stdout).not.toMatch(/^warning:/m);
});
