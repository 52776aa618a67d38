/**
 * Keys go only to hosts the user names outside the target file (core/target/allowed-hosts.ts): a
 * base URL naming any other host than loopback ends the run at load, before any request, in one line
 * naming the host and how to allow it. `0.0.0.0` is no loopback name, yet reaches a server listening
 * on 127.0.0.1: the tests see what such a host receives, with no server listening beyond loopback.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ConformanceRunError, runConformance } from '../cli/api.ts';
import { normalisedHost, refusedKeyHosts } from '../core/target/allowed-hosts.ts';
import { NodeTransport } from '../core/http/transport.ts';
import { parseTarget } from '../core/target/target.ts';
import type { ReferenceServer } from '../reference/options.ts';
import { startReference } from '../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../reference/target-file.ts';
import { runCli, type CliRun } from './support/harness.ts';
import {
  HOSTILE_KEYS,
  OK_JSON,
  stackLines,
  startHostile,
  stderrLines,
  writeTarget,
  writeTargetYaml,
  type HostileServer,
} from './support/hostile-server.ts';

test.describe.configure({ mode: 'parallel' });

const servers: Array<HostileServer | ReferenceServer> = [];
test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function oneLineRefusal(run: CliRun): string {
  expect(stackLines(run)).toEqual([]);
  expect(run.code, run.stdout + run.stderr).toBe(2);
  expect(run.report).toBeUndefined();
  const lines = stderrLines(run);
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/** The reference, described by a target file whose base URL names it as 0.0.0.0 (not a loopback name). */
async function referenceAtAnyAddress(): Promise<{ server: ReferenceServer; file: string; port: string }> {
  const server = await startReference();
  servers.push(server);
  const port = new URL(server.baseUrl).port;
  const yaml = referenceTargetYaml(server).replace(/^baseUrl: .*$/m, `baseUrl: http://0.0.0.0:${port}/v1`);
  expect(yaml).toContain(`baseUrl: http://0.0.0.0:${port}/v1`);
  return { server, file: writeTargetYaml(yaml), port };
}

const GREP = ['--grep', 'files\\.limit\\.bounds'];

test('a base URL naming a host the user did not allow: exit 2 at load, one line naming the host and how to allow it, nothing sent', async () => {
  const { server, file } = await referenceAtAnyAddress();
  const run = await runCli(['--target', file, '--allow-insecure', ...GREP], {
    env: referenceKeyEnv(server),
    timeoutMs: 60_000,
  });
  expect(oneLineRefusal(run)).toMatch(
    /^conformance: target file \S+: baseUrl names host 0\.0\.0\.0, which the keys may be sent to only if you allow it outside the target file: pass --allow-host 0\.0\.0\.0 or set CONFORMANCE_ALLOW_HOSTS=0\.0\.0\.0$/,
  );
  expect(server.received).toEqual([]);
});

test('--allow-host HOST: the run is made, and the console, report.json, summary.md and the replay say where the keys went', async () => {
  const { server, file, port } = await referenceAtAnyAddress();
  const run = await runCli(['--target', file, '--allow-insecure', '--allow-host', '0.0.0.0', ...GREP], {
    env: referenceKeyEnv(server),
    timeoutMs: 90_000,
  });
  expect(stackLines(run)).toEqual([]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(server.received.length).toBeGreaterThan(0);
  const regional = new URL(server.regionalBaseUrl).host;
  expect(run.stdout).toContain(`keys go only to: 0.0.0.0:${port}, ${regional}\n`);
  expect(run.report?.run.keysSentTo).toEqual([`0.0.0.0:${port}`, regional]);
  expect(readFileSync(join(run.reportDir, 'summary.md'), 'utf8')).toContain(
    `Keys sent only to \`0.0.0.0:${port}\`, \`${regional}\``,
  );
  expect(run.report?.run.replay).toMatch(/ --allow-host 0\.0\.0\.0 /);
});

test('CONFORMANCE_ALLOW_HOSTS (as a CI workflow states it): HOST:PORT allows that port only; the replay carries it as --allow-host', async () => {
  const { server, file, port } = await referenceAtAnyAddress();
  const env = { ...referenceKeyEnv(server) };
  const allowed = await runCli(['--target', file, '--allow-insecure', ...GREP], {
    env: { ...env, CONFORMANCE_ALLOW_HOSTS: ` api.example.com, 0.0.0.0:${port} ,` },
    timeoutMs: 90_000,
  });
  expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
  expect(allowed.report?.run.replay).toContain(` --allow-host api.example.com,0.0.0.0:${port} `);
  const before = server.received.length;
  const otherPort = await runCli(['--target', file, '--allow-insecure', ...GREP], {
    env: { ...env, CONFORMANCE_ALLOW_HOSTS: `0.0.0.0:${Number(port) === 1 ? 2 : Number(port) - 1}` },
    timeoutMs: 60_000,
  });
  expect(oneLineRefusal(otherPort)).toContain('baseUrl names host 0.0.0.0, which the keys may be sent to only if');
  expect(server.received.length).toBe(before);
  const bad = await runCli(['--target', file, '--allow-insecure', ...GREP], {
    env: { ...env, CONFORMANCE_ALLOW_HOSTS: 'https://0.0.0.0/' },
    timeoutMs: 60_000,
  });
  expect(oneLineRefusal(bad)).toBe(
    'conformance: CONFORMANCE_ALLOW_HOSTS takes HOST or HOST:PORT (e.g. api.example.com or api.example.com:8443), got "https://0.0.0.0/": give the host alone, without a scheme',
  );
});

test('every base URL is checked: an interns.regionalBaseUrl on another host is refused though baseUrl is loopback', async () => {
  const recorder = await startHostile(OK_JSON);
  servers.push(recorder);
  const port = new URL(recorder.baseUrl).port;
  const file = writeTarget(recorder.baseUrl, {
    edit: (y) => y.replace('interns:\n', `interns:\n  regionalBaseUrl: http://0.0.0.0:${port}/eu/v1\n`),
  });
  const run = await runCli(['--target', file, '--allow-insecure'], { env: { ...HOSTILE_KEYS }, timeoutMs: 60_000 });
  expect(oneLineRefusal(run)).toMatch(
    /: interns\.regionalBaseUrl names host 0\.0\.0\.0, which the keys .* pass --allow-host 0\.0\.0\.0 or set/,
  );
  expect(recorder.received).toEqual([]);
});

test('runConformance takes allowHosts (and CONFORMANCE_ALLOW_HOSTS of its env); without them the run is refused before any request', async () => {
  const { server, file } = await referenceAtAnyAddress();
  const env = referenceKeyEnv(server);
  const options = { target: file, allowInsecure: true, grep: 'files\\.limit\\.bounds', env };
  await expect(runConformance(options)).rejects.toThrow(ConformanceRunError);
  await expect(runConformance(options)).rejects.toThrow(/baseUrl names host 0\.0\.0\.0/);
  expect(server.received).toEqual([]);
  const report = await runConformance({ ...options, allowHosts: ['0.0.0.0'] });
  expect(report.verdict).toBe('conformant');
  expect(report.run.replay).toContain('--allow-host 0.0.0.0');
  const byEnv = await runConformance({ ...options, env: { ...env, CONFORMANCE_ALLOW_HOSTS: '0.0.0.0' } });
  expect(byEnv.verdict).toBe('conformant');
  await expect(runConformance({ ...options, allowHosts: ['0.0.0.0/v1'] })).rejects.toThrow(
    /^--allow-host takes HOST or HOST:PORT/,
  );
});

test('hosts as the URL parser writes them: case, IDN, IPv6 and ports; loopback needs nothing; the file cannot allow itself', () => {
  expect(normalisedHost('API.Example.COM')).toBe('api.example.com');
  expect(normalisedHost('bücher.example:08443')).toBe('xn--bcher-kva.example:8443');
  expect(normalisedHost('[::2]:9')).toBe('[::2]:9');
  for (const bad of ['*.example.com', 'a b', 'host:', 'host:65536', 'https://a', 'a/b', '']) {
    expect(() => normalisedHost(bad), bad).toThrow(/takes HOST or HOST:PORT/);
  }
  const at = (url: string) => [{ field: 'baseUrl', url }];
  for (const url of ['http://127.0.0.1:1/v1', 'http://localhost/v1', 'http://[::1]:8/v1'])
    expect(refusedKeyHosts(at(url), []), url).toBeUndefined();
  expect(refusedKeyHosts(at('https://api.example.com/v1'), ['api.example.com'])).toBeUndefined();
  expect(refusedKeyHosts(at('https://api.example.com/v1'), ['api.example.com:443'])).toBeUndefined();
  expect(refusedKeyHosts(at('https://api.example.com/v1'), ['api.example.com:8443'])).toContain('--allow-host');
  expect(refusedKeyHosts(at('https://API.example.com:8443/v1'), ['api.example.com:8443'])).toBeUndefined();
  // An allowance is never read from the target file: a field for it is an unknown field.
  const yaml = `baseUrl: https://evil.example/v1\napiKey: \${K}\nallowHosts: [evil.example]\ncontainerFiles: { containerId: c }\nmodelEndpoints: { model: a/b }\ninterns: { workspaceId: w }\n`;
  expect(() => parseTarget(yaml, 't.yaml', { env: { K: 'k'.repeat(20) } })).toThrow(/unknown field allowHosts/);
  expect(() => parseTarget(yaml.replace(/^allowHosts.*\n/m, ''), 't.yaml', { env: { K: 'k'.repeat(20) } })).toThrow(
    /baseUrl names host evil\.example/,
  );
});

test('a redirect never carries the key to another host: the transport does not follow it', async () => {
  const elsewhere = await startHostile(OK_JSON);
  servers.push(elsewhere);
  const redirecting = await startHostile({ kind: 'redirect', location: `${elsewhere.baseUrl}/interns` });
  servers.push(redirecting);
  const transport = new NodeTransport({ timeoutMs: 5_000, bodyCapBytes: 1024 });
  try {
    const res = await transport.get(new URL(`${redirecting.baseUrl}/interns`), { authorization: 'Bearer secret-key' });
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
    expect(redirecting.received).toHaveLength(1);
    expect(elsewhere.received).toEqual([]);
  } finally {
    await transport.close();
  }
});
