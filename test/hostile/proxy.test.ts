/**
 * Proxies as curl and npm honour them (core/http/proxy.ts): HTTP_PROXY in absolute form, HTTPS_PROXY
 * through a CONNECT tunnel, NO_PROXY as curl matches it, loopback targets never proxied, the proxy's
 * credentials sent as Proxy-Authorization and masked in every output. The tests reach loopback only:
 * the transport's internal `proxyLoopback` sends loopback targets through the test's proxy, and a target
 * named `target.test` (resolving nowhere) is reached through the proxy alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { bypassesProxy, isLoopback, proxyFor } from '../../core/http/proxy.ts';
import { NodeTransport, TransportError } from '../../core/http/transport.ts';
import { Mask } from '../../core/text/mask.ts';
import { secretsOf } from '../../core/text/mask.ts';
import type { ReferenceServer } from '../../reference/options.ts';
import { startReference } from '../../reference/server.ts';
import { referenceKeyEnv, referenceTargetYaml } from '../../reference/target-file.ts';
import { runCli } from '../support/harness.ts';
import { OK_JSON, stackLines, startHostile, writeTargetYaml, type HostileServer } from '../support/hostile-server.ts';
import { startLoopbackProxy, type LoopbackProxy } from '../support/loopback-proxy.ts';

test.describe.configure({ mode: 'parallel' });

const USER = 'pxuser';
const PASSWORD = 'px-secret-9d41e7';
const closers: Array<HostileServer | ReferenceServer | LoopbackProxy> = [];
test.afterAll(async () => {
  await Promise.all(closers.splice(0).map((s) => s.close()));
});

const LIMITS = { timeoutMs: 5_000, bodyCapBytes: 64 * 1024 };

test('NO_PROXY is matched as curl matches it; loopback is never proxied', () => {
  const at = (u: string) => new URL(u);
  expect(bypassesProxy(at('http://api.example.com/'), 'example.com')).toBe(true);
  expect(bypassesProxy(at('http://api.example.com/'), '.example.com')).toBe(true);
  expect(bypassesProxy(at('http://example.com/'), '.example.com')).toBe(true);
  expect(bypassesProxy(at('http://notexample.com/'), 'example.com')).toBe(false);
  expect(bypassesProxy(at('http://api.example.com/'), 'other.org, *')).toBe(true);
  expect(bypassesProxy(at('http://api.example.com:8080/'), 'example.com:8080')).toBe(true);
  expect(bypassesProxy(at('http://api.example.com/'), 'example.com:8080')).toBe(false);
  expect(bypassesProxy(at('https://api.example.com/'), 'api.example.com:443')).toBe(true);
  expect(bypassesProxy(at('http://10.1.2.3/'), '10.0.0.0/8')).toBe(true);
  expect(bypassesProxy(at('http://11.1.2.3/'), '10.0.0.0/8')).toBe(false);
  expect(bypassesProxy(at('http://[2001:db8::1]/'), '[2001:db8::1]')).toBe(true);
  expect(bypassesProxy(at('http://api.example.com/'), '')).toBe(false);
  for (const host of ['127.0.0.1', '127.9.8.7', '[::1]', 'localhost', 'LOCALHOST.', 'a.localhost'])
    expect(isLoopback(host), host).toBe(true);
  for (const host of ['0.0.0.0', '128.0.0.1', 'example.com', '[::2]']) expect(isLoopback(host), host).toBe(false);
  const env = { HTTP_PROXY: 'proxy.corp:3128', https_proxy: 'http://u:p@proxy.corp:3129' };
  expect(proxyFor(at('http://127.0.0.1:9/'), env)).toBeUndefined();
  expect(proxyFor(at('http://localhost:9/'), env)).toBeUndefined();
  expect(proxyFor(at('http://api.example.com/'), env)).toMatchObject({ hostPort: 'proxy.corp:3128' });
  expect(proxyFor(at('https://api.example.com/'), env)).toMatchObject({
    hostPort: 'proxy.corp:3129',
    authorization: `Basic ${Buffer.from('u:p').toString('base64')}`,
  });
  expect(proxyFor(at('https://api.example.com/'), { ...env, NO_PROXY: 'example.com' })).toBeUndefined();
  expect(proxyFor(at('https://api.example.com/'), { HTTPS_PROXY: 'socks5://proxy.corp:1080' })).toEqual({
    unusable: 'HTTPS_PROXY: only an http:// proxy is supported',
  });
});

test('an http target: absolute-form requests to the proxy with Proxy-Authorization, never in the headers given; NO_PROXY and loopback bypass it', async () => {
  const proxy = await startLoopbackProxy(`${USER}:${PASSWORD}`);
  const server = await startHostile(OK_JSON);
  closers.push(proxy, server);
  const url = new URL(`${server.baseUrl}/models/a/b/endpoints`);
  const env = { HTTP_PROXY: `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}` };
  const headers = { accept: 'application/json' };

  const through = new NodeTransport(LIMITS, { env, proxyLoopback: true });
  const res = await through.get(url, headers);
  await through.close();
  expect(res.status).toBe(200);
  expect(proxy.asked).toEqual([
    {
      method: 'GET',
      target: url.href,
      authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`,
    },
  ]);
  expect(headers).toEqual({ accept: 'application/json' });
  expect(server.received.at(-1)?.headers['proxy-authorization']).toBeUndefined();

  // Loopback without the tests' switch, and NO_PROXY naming the target: straight to it.
  for (const transport of [
    new NodeTransport(LIMITS, { env }),
    new NodeTransport(LIMITS, {
      env: { ...env, NO_PROXY: `.example.com, 127.0.0.1:${url.port}` },
      proxyLoopback: true,
    }),
  ]) {
    expect((await transport.get(url, headers)).status).toBe(200);
    await transport.close();
  }
  expect(proxy.asked).toHaveLength(1);
  expect(server.received.length).toBeGreaterThanOrEqual(3);
});

test('bodies stay capped through the proxy, and a refusing proxy is named without its credentials', async () => {
  const proxy = await startLoopbackProxy();
  const server = await startHostile({ kind: 'raw', body: 'x'.repeat(1024 * 1024) });
  closers.push(proxy, server);
  const env = { http_proxy: `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}` };
  const transport = new NodeTransport(LIMITS, { env, proxyLoopback: true });
  const capped = await transport.get(new URL(`${server.baseUrl}/x`), {}).catch((e: unknown) => e);
  expect(capped).toBeInstanceOf(TransportError);
  expect((capped as Error).message).toMatch(/larger than the cap of 65536 bytes/);
  expect(proxy.asked).toHaveLength(1);
  await transport.close();

  await proxy.close();
  const refused = new NodeTransport(LIMITS, { env, proxyLoopback: true });
  const error = await refused.get(new URL(`${server.baseUrl}/x`), {}).catch((e: unknown) => e);
  await refused.close();
  expect((error as Error).message).toBe(`connection refused (through the proxy 127.0.0.1:${proxy.port})`);
  expect((error as Error).message).not.toContain(PASSWORD);
});

test('an https target: a CONNECT tunnel, then TLS to the target by its own name, certificates checked as ever', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=target.test',
      '-addext',
      'subjectAltName=DNS:target.test',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  const tlsServer = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ servedHost: req.headers.host })),
  );
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  const port = (tlsServer.address() as AddressInfo).port;
  const proxy = await startLoopbackProxy(`${USER}:${PASSWORD}`);
  closers.push(proxy, { close: () => new Promise<void>((r) => tlsServer.close(() => r())) } as LoopbackProxy);
  const env = { HTTPS_PROXY: `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}` };
  const url = new URL(`https://target.test:${port}/v1/interns`);

  const trusting = new NodeTransport(LIMITS, { env, ca: cert });
  const res = await trusting.get(url, { accept: 'application/json' });
  await trusting.close();
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body.toString())).toEqual({ servedHost: `target.test:${port}` });
  expect(proxy.asked[0]).toEqual({
    method: 'CONNECT',
    target: `target.test:${port}`,
    authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`,
  });

  // The same certificate, not trusted: the tunnel changes nothing of TLS's checks.
  const strict = new NodeTransport(LIMITS, { env });
  const error = await strict.get(url, {}).catch((e: unknown) => e);
  await strict.close();
  expect(error).toBeInstanceOf(TransportError);
  expect((error as Error).message).toMatch(/self[- ]signed certificate/);
  expect(proxy.asked.map((a) => a.method)).toEqual(['CONNECT', 'CONNECT']);

  // The proxy refusing the credentials: named, with its host:port and status, never the credentials.
  const wrong = new NodeTransport(LIMITS, {
    env: { HTTPS_PROXY: `http://${USER}:nope@127.0.0.1:${proxy.port}` },
    ca: cert,
  });
  const refused = await wrong.get(url, {}).catch((e: unknown) => e);
  await wrong.close();
  expect((refused as Error).message).toContain(
    `the proxy 127.0.0.1:${proxy.port} refused the tunnel to target.test:${port} (HTTP 407)`,
  );
});

test('the proxy credentials are secrets of the mask', () => {
  const saved = process.env.HTTPS_PROXY;
  process.env.HTTPS_PROXY = `http://${USER}:${PASSWORD}@proxy.corp:3128`;
  try {
    const mask = new Mask(secretsOf({ apiKey: 'sk-0123456789abcdef0123' }));
    const token = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    const shown = mask.text(`Proxy-Authorization: Basic ${token} via http://${USER}:${PASSWORD}@proxy.corp:3128`);
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(token);
    expect(shown).toContain('proxy.corp:3128');
  } finally {
    if (saved === undefined) delete process.env.HTTPS_PROXY;
    else process.env.HTTPS_PROXY = saved;
  }
});

test('a run through HTTP_PROXY: the console and report.json name the proxy by host:port, its credentials appear in no output', async () => {
  test.setTimeout(120_000);
  const server = await startReference();
  const proxy = await startLoopbackProxy(`${USER}:${PASSWORD}`);
  closers.push(server, proxy);
  const port = new URL(server.baseUrl).port;
  const yaml = referenceTargetYaml(server).replace(/^baseUrl: .*$/m, `baseUrl: http://target.test:${port}/v1`);
  const run = await runCli(
    [
      '--target',
      writeTargetYaml(yaml),
      '--allow-insecure',
      '--allow-host',
      'target.test',
      '--grep',
      'files\\.limit\\.bounds',
    ],
    {
      env: {
        ...referenceKeyEnv(server),
        HTTP_PROXY: `http://${USER}:${PASSWORD}@127.0.0.1:${proxy.port}`,
        NO_PROXY: '',
      },
      timeoutMs: 110_000,
    },
  );
  expect(stackLines(run)).toEqual([]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(proxy.asked.length).toBeGreaterThan(3);
  expect(proxy.asked.every((a) => a.target.startsWith(`http://target.test:${port}/v1/`))).toBe(true);
  expect(run.stdout).toContain(`proxy: 127.0.0.1:${proxy.port} `);
  expect(run.report?.run.proxy).toBe(`127.0.0.1:${proxy.port}`);
  const token = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
  for (const text of [
    run.stdout,
    run.stderr,
    ...readdirSync(run.reportDir).map((f) => readFileSync(join(run.reportDir, f), 'utf8')),
  ]) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(token);
  }
});
