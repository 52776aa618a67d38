import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseTarget, targetOfMapping } from '../core/target/target.ts';
import { parseReferenceCli, referenceOptions, startedText, TARGET_HEREDOC } from '../reference/cli.ts';
import { FAULTS } from '../reference/faults/index.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetMapping, referenceTargetYaml } from '../reference/target-file.ts';
import { CONFORMANT_VARIANTS } from '../reference/variants.ts';
import { ROOT, runScript } from './support/harness.ts';

test.describe.configure({ mode: 'parallel' });

/** The keys and target file a started reference prints, as a user pasting them would get them. */
function pasted(stdout: string): { env: Record<string, string>; yaml: string } {
  const env = Object.fromEntries([...stdout.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const m = new RegExp(`<<'${TARGET_HEREDOC}'\\n([\\s\\S]*?)\\n${TARGET_HEREDOC}$`, 'm').exec(stdout);
  if (!m) throw new Error(`no target file in: ${stdout}`);
  return { env, yaml: m[1]! };
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

test('--help prints the usage and starts nothing; --list names every fault and conformant variant, one line each', async () => {
  const help = await runScript('reference/main.ts', ['--help'], { timeoutMs: 30_000 });
  expect(help.code).toBe(0);
  expect(help.stdout).toMatch(/^usage: npm run reference/);
  for (const o of ['--port', '--regional-port', '--fault', '--variant', '--list']) expect(help.stdout).toContain(o);
  expect(help.stdout).not.toContain('127.0.0.1:'); // no listener was started, so no address printed

  const list = await runScript('reference/main.ts', ['--list'], { timeoutMs: 30_000 });
  expect(list.code).toBe(0);
  const lines = list.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(FAULTS.length + CONFORMANT_VARIANTS.length);
  for (const f of FAULTS)
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^fault +${f.name} +breaks ${f.breaks[0]!.replace(/\./g, '\\.')}`)),
    );
  for (const v of CONFORMANT_VARIANTS)
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^variant +${v.name} +conformant: `)));
});

test('an unknown fault or variant and a bad port are one line naming the option, exit 2', async () => {
  for (const argv of [
    ['--fault', 'no-such-fault'],
    ['--variant', 'nope'],
    ['--port', '65536'],
    ['--regional-port', '-1'],
    ['--port', 'http'],
    ['--colour'],
  ]) {
    const run = await runScript('reference/main.ts', argv, { timeoutMs: 30_000 });
    expect(run.code, argv.join(' ')).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n'), argv.join(' ')).toEqual([
      expect.stringMatching(new RegExp(`^conformance reference: .*${argv[0]!}.* \\(see --help\\)$`)),
    ]);
  }
});

test("an unknown option or a stray word is one line in the main command's form, with what it most likely meant, exit 2", async () => {
  // As `conformance --sede` says it (cli/args.ts), among the reference's own options.
  const typo = await runScript('reference/main.ts', ['--prot', '8080'], { timeoutMs: 30_000 });
  expect(typo.code).toBe(2);
  expect(typo.stdout).toBe('');
  expect(typo.stderr).toBe('conformance reference: unknown option --prot (did you mean --port?) (see --help)\n');
  const refusal = (argv: string[]) => {
    try {
      parseReferenceCli(argv);
    } catch (e) {
      return (e as Error).message;
    }
    return 'parsed';
  };
  expect(refusal(['--fualt', FAULTS[0]!.name])).toBe('unknown option --fualt (did you mean --fault?)');
  expect(refusal(['--varient=x'])).toBe('unknown option --varient (did you mean --variant?)');
  expect(refusal(['--seed', '7'])).toBe('unknown option --seed');
  expect(refusal(['--\u001b[2J'])).toBe('unknown option --\\x1b[2J');
  expect(refusal([FAULTS[0]!.name])).toBe(
    `unexpected argument ${FAULTS[0]!.name} (did you mean --fault ${FAULTS[0]!.name}?)`,
  );
  expect(refusal([CONFORMANT_VARIANTS[0]!.name])).toBe(
    `unexpected argument ${CONFORMANT_VARIANTS[0]!.name} (did you mean --variant ${CONFORMANT_VARIANTS[0]!.name}?)`,
  );
  expect(refusal(['8080'])).toBe('unexpected argument 8080: the command takes options only');
});

test('parsing: faults repeat, one variant, two distinct ports', () => {
  expect(parseReferenceCli(['--fault', FAULTS[0]!.name, '--fault', FAULTS[1]!.name]).faults).toEqual([
    FAULTS[0]!.name,
    FAULTS[1]!.name,
  ]);
  expect(() =>
    parseReferenceCli(['--variant', CONFORMANT_VARIANTS[0]!.name, '--variant', CONFORMANT_VARIANTS[1]!.name]),
  ).toThrow(/--variant/);
  expect(() => parseReferenceCli(['--port', '8080', '--regional-port', '8080'])).toThrow(/--regional-port/);
  expect(() => parseReferenceCli(['--port', '\u001b[2J'])).toThrow(/\\x1b\[2J/);
});

test('a variant started from the command line prints a target file with its own choices', async () => {
  const variant = CONFORMANT_VARIANTS.find((v) => v.options.internsParams)!;
  const cli = parseReferenceCli(['--variant', variant.name]);
  const server = await startReference(referenceOptions(cli));
  try {
    const { env, yaml } = pasted(startedText(server, cli));
    const target = parseTarget(yaml, 'printed.yaml', { env });
    expect(target.interns.params).toEqual(variant.options.internsParams);
  } finally {
    await server.close();
  }
});

test('a reference started with --fault and fixed ports prints keys and a target file the suite loads, and serves the fault', async () => {
  const [port, regionalPort] = [await freePort(), await freePort()];
  const fault = 'interns-regional-host-served';
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      join(ROOT, 'reference/main.ts'),
      '--fault',
      fault,
      '--port',
      String(port),
      '--regional-port',
      String(regionalPort),
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('npm run conformance')) resolve();
      });
      void exited.then((code) => reject(new Error(`reference exited ${code} before printing its target file`)));
    });
    expect(stdout).toContain(`fault ${fault}`);
    const { env, yaml } = pasted(stdout);
    const target = parseTarget(yaml, 'printed.yaml', { env });
    expect(target.baseUrl).toBe(`http://127.0.0.1:${port}/v1`);
    expect(target.interns.regionalBaseUrl).toBe(`http://127.0.0.1:${regionalPort}/v1`);

    // The regional host is live at the printed address and the fault is on: list interns is served there.
    const url = `${target.interns.regionalBaseUrl}/interns?${target.interns.params?.workspace ?? 'workspace_id'}=${target.interns.workspaceId}`;
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${target.apiKey}` },
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(200);
    // Without the fault the same request is refused (4.3), so the 200 above is the fault's doing.
    const plain = await startReference();
    try {
      const refused = await fetch(`${plain.regionalBaseUrl}/interns?workspace_id=${target.interns.workspaceId}`, {
        headers: { authorization: `Bearer ${target.apiKey}` },
      });
      expect(refused.status).not.toBe(200);
    } finally {
      await plain.close();
    }
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    clearTimeout(killer);
  }
});

test('the embedded reference run reads the target its printed file reads: its mapping, without YAML, is the same target, for every conformant variant', async () => {
  for (const options of [{}, ...CONFORMANT_VARIANTS.map((v) => v.options)]) {
    const server = await startReference(options);
    try {
      const env = referenceKeyEnv(server);
      const fromYaml = parseTarget(referenceTargetYaml(server), 'printed.yaml', { env });
      expect(targetOfMapping(referenceTargetMapping(server), 'embedded reference', { env })).toEqual(fromYaml);
      expect(fromYaml.apiKeyVariable).toBe('CONFORMANCE_REFERENCE_API_KEY');
    } finally {
      await server.close();
    }
  }
});

test('examples/reference.target.yaml is what the reference prints for --port 8080 --regional-port 8081', async () => {
  const server = await startReference();
  try {
    const env = referenceKeyEnv(server);
    const printed = referenceTargetYaml(server)
      .replace(new URL(server.baseUrl).host, '127.0.0.1:8080')
      .replace(new URL(server.regionalBaseUrl).host, '127.0.0.1:8081');
    const example = readFileSync(join(ROOT, 'examples/reference.target.yaml'), 'utf8');
    expect(parseTarget(example, 'example.yaml', { env })).toEqual(parseTarget(printed, 'printed.yaml', { env }));
    // Its comment gives the keys the user exports: the reference's own.
    for (const [name, key] of Object.entries(env)) expect(example).toContain(`export ${name}=${key}`);
  } finally {
    await server.close();
  }
});
