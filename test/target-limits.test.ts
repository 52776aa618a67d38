/**
 * Bounded target file input (core/target/target.ts): only a regular file of at most 1 MiB is read, YAML
 * aliases and nesting are limited, base URLs with a query, fragment or credentials and keys that are
 * no bearer token are refused at load, each in one line naming the file (and the key's variable,
 * never the key), quickly.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  loadTarget,
  MAX_KEY_CHARS,
  MAX_TARGET_FILE_BYTES,
  MAX_YAML_ALIASES,
  MAX_YAML_DEPTH,
  parseTarget,
  TargetFileError,
} from '../core/target/target.ts';

const KEY = 'limits-key-0123456789';
const ENV = { LIMITS_KEY: KEY };

function yaml(baseUrl = 'http://127.0.0.1:1/v1', more = ''): string {
  return `baseUrl: ${baseUrl}\napiKey: \${LIMITS_KEY}\ncontainerFiles: { containerId: c }\nmodelEndpoints: { model: a/b }\ninterns:\n  workspaceId: w\n${more}`;
}

function file(text: string | Buffer, name = 'target.yaml'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'target-limits-')), name);
  writeFileSync(path, text);
  return path;
}

/**
 * The refusal of `load`: a TargetFileError of one line starting with the file's name. A hostile file
 * that made the loader hang would hold the test to its time-out: a failure, with no wall-clock bound here.
 */
function refusal(load: () => unknown): string {
  let error: unknown;
  try {
    load();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(TargetFileError);
  const message = (error as Error).message;
  expect(message).toMatch(/^target file \S+: /);
  expect(message).not.toContain('\n');
  return message;
}

test('a well-formed file loads (the refusals below are not of everything)', () => {
  const target = loadTarget(file(yaml()), { env: ENV });
  expect(target.apiKey).toBe(KEY);
  expect(target.baseUrl).toBe('http://127.0.0.1:1/v1');
});

test('only a regular file: a directory, /dev/zero and a FIFO are refused at once (a FIFO without a writer would block)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'target-limits-'));
  expect(refusal(() => loadTarget(dir, { env: ENV }))).toMatch(/: not a regular file \(it is a directory\)$/);
  expect(refusal(() => loadTarget('/dev/zero', { env: ENV }))).toMatch(
    /^target file \/dev\/zero: not a regular file \(it is a character device\)$/,
  );
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  expect(refusal(() => loadTarget(fifo, { env: ENV }))).toMatch(/: not a regular file \(it is a FIFO\)$/);
  expect(refusal(() => loadTarget(join(dir, 'missing.yaml'), { env: ENV }))).toMatch(/: cannot be read \(ENOENT\)$/);
});

test('at most 1 MiB: one byte more is refused before parsing; exactly the limit is read (and judged as YAML)', () => {
  const over = Buffer.alloc(MAX_TARGET_FILE_BYTES + 1, 0x20);
  expect(refusal(() => loadTarget(file(over), { env: ENV }))).toMatch(
    new RegExp(`: larger than the limit of ${MAX_TARGET_FILE_BYTES} bytes$`),
  );
  const padded = yaml() + '#'.repeat(MAX_TARGET_FILE_BYTES - Buffer.byteLength(yaml()));
  expect(Buffer.byteLength(padded)).toBe(MAX_TARGET_FILE_BYTES);
  expect(loadTarget(file(padded), { env: ENV }).apiKey).toBe(KEY);
  expect(refusal(() => loadTarget(file(Buffer.from([0x62, 0x3a, 0x20, 0xff, 0xfe])), { env: ENV }))).toMatch(
    /: not UTF-8 text$/,
  );
});

test('a YAML alias bomb is refused naming the file, not as an internal error; a few aliases are fine', () => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (const [name, prev] of [
    ['b', 'a'],
    ['c', 'b'],
    ['d', 'c'],
    ['e', 'd'],
    ['f', 'e'],
    ['g', 'f'],
  ])
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
  expect(refusal(() => parseTarget(lines.join('\n'), 'bomb.yaml', { env: ENV }))).toBe(
    `target file bomb.yaml: not valid YAML: more than ${MAX_YAML_ALIASES} alias expansions (an alias bomb?)`,
  );
  const aliased = yaml('http://127.0.0.1:1/v1', '  otherWorkspaceId: &w w2\n').replace(
    'containerId: c',
    'containerId: c, emptyContainerId: c2',
  );
  expect(parseTarget(aliased, 'ok.yaml', { env: ENV }).interns.otherWorkspaceId).toBe('w2');
});

test('nesting is limited: a megabyte of [ , a deep block structure and a self-referencing alias end in one line, quickly', () => {
  const deep = `target file deep.yaml: not valid YAML: collections nested more than ${MAX_YAML_DEPTH} levels deep`;
  expect(refusal(() => parseTarget(`a: ${'['.repeat(MAX_TARGET_FILE_BYTES - 3)}`, 'deep.yaml', { env: ENV }))).toBe(
    deep,
  );
  expect(
    refusal(() =>
      parseTarget(`a: ${'{b: '.repeat(MAX_YAML_DEPTH + 1)}1${'}'.repeat(MAX_YAML_DEPTH + 1)}`, 'deep.yaml', {
        env: ENV,
      }),
    ),
  ).toBe(deep);
  // Block nesting is only seen by the parser: bounded by the file size, still a few seconds at most.
  expect(refusal(() => parseTarget(`${'- '.repeat(200_000)}1`, 'deep.yaml', { env: ENV }))).toBe(deep);
  expect(refusal(() => parseTarget('a: &a [*a]\n', 'deep.yaml', { env: ENV }))).toBe(deep);
  // A flow collection within the limit is fine (the limit is not "no flow style").
  expect(parseTarget(yaml(), 'ok.yaml', { env: ENV }).containerFiles.containerId).toBe('c');
});

for (const [what, url, says] of [
  ['a query', 'http://127.0.0.1:1/v1?tenant=a', /: baseUrl must not have a query \(\?\.\.\.\); give the base URL only/],
  ['an empty query', 'http://127.0.0.1:1/v1?', /: baseUrl must not have a query/],
  ['a fragment', 'http://127.0.0.1:1/v1#top', /: baseUrl must not have a fragment \(#\.\.\.\)/],
  [
    'credentials',
    'http://user:secret-pass@127.0.0.1:1/v1',
    /: baseUrl must not carry credentials \(user:password@\); the key goes in apiKey$/,
  ],
  ['an empty user', 'http://@127.0.0.1:1/v1', /: baseUrl must not carry credentials/],
  ['a tab', 'http://127.0.0.1:1/v\t1', /: baseUrl holds white space or a control character$/],
] as const) {
  test(`baseUrl with ${what} is refused at load, without printing the URL`, () => {
    const message = refusal(() => parseTarget(yaml(JSON.stringify(url)), 'target.yaml', { env: ENV }));
    expect(message).toMatch(says);
    expect(message).not.toContain('secret-pass');
    expect(message).not.toContain('tenant');
  });
}

test('interns.regionalBaseUrl is held to the same rules', () => {
  const message = refusal(() =>
    parseTarget(yaml(undefined, '  regionalBaseUrl: "http://127.0.0.2:1/v1#eu"\n'), 'target.yaml', { env: ENV }),
  );
  expect(message).toMatch(/: interns\.regionalBaseUrl must not have a fragment/);
});

for (const [what, key, says] of [
  ['a trailing newline', `${KEY}\n`, 'it starts or ends with white space (a trailing newline?)'],
  ['a newline inside', `${KEY.slice(0, 5)}\n${KEY.slice(5)}`, 'it holds a line break'],
  ['an escape character', `${KEY}\u001b[2J`, 'it holds a control character'],
  ['a Latin-1 letter', `${KEY}é`, 'it holds a character outside ASCII'],
  ['a space inside', `${KEY.slice(0, 5)} ${KEY.slice(5)}`, 'it holds white space'],
  ['= before its end', `${KEY.slice(0, 5)}=${KEY.slice(5)}`, '= appears before its end'],
  ['a quote', `${KEY}"`, 'it holds a character outside that set'],
] as const) {
  test(`a key with ${what} is refused at load naming its variable, never the key`, () => {
    const message = refusal(() => parseTarget(yaml(), 'target.yaml', { env: { LIMITS_KEY: key } }));
    expect(message).toBe(
      `target file target.yaml: apiKey (from $LIMITS_KEY) is not a valid bearer token: ${says}; RFC 6750 2.1 allows letters, digits, - . _ ~ + / and = at the end`,
    );
    expect(message).not.toContain(KEY.slice(5));
  });
}

test(`a key up to ${MAX_KEY_CHARS} characters is taken; a longer one is refused at load, naming its variable and length, never the key`, () => {
  const longest = 'k'.repeat(MAX_KEY_CHARS);
  expect(parseTarget(yaml(), 'target.yaml', { env: { LIMITS_KEY: longest } }).apiKey).toBe(longest);
  const message = refusal(() => parseTarget(yaml(), 'target.yaml', { env: { LIMITS_KEY: `${longest}k` } }));
  expect(message).toBe(
    `target file target.yaml: apiKey (from $LIMITS_KEY) is ${MAX_KEY_CHARS + 1} characters long, over the ${MAX_KEY_CHARS} the suite takes (a file's whole content instead of the key?)`,
  );
});

test('every b64token character is accepted, padding included; a literal key names the file as its source', () => {
  const token = 'AZaz09-._~+/abc==';
  expect(parseTarget(yaml(), 'target.yaml', { env: { LIMITS_KEY: token } }).apiKey).toBe(token);
  const literal = yaml().replace('${LIMITS_KEY}', '"bad key"');
  expect(refusal(() => parseTarget(literal, 'target.yaml', { allowLiteralKeys: true }))).toMatch(
    /: apiKey \(written in the file\) is not a valid bearer token: it holds white space;/,
  );
  const restricted = `${yaml()}restrictedApiKey: \${LIMITS_RESTRICTED}\n`;
  expect(
    refusal(() => parseTarget(restricted, 'target.yaml', { env: { ...ENV, LIMITS_RESTRICTED: 'r\u00e9' } })),
  ).toMatch(/: restrictedApiKey \(from \$LIMITS_RESTRICTED\) is not a valid bearer token/);
});

test('only the key fields read the environment: ${VAR} anywhere else is refused naming the field, never the value', () => {
  const env = { ...ENV, CI_DEPLOY_SECRET: 'deploy-secret-value' };
  const cases: Array<[string, string]> = [
    [yaml().replace('containerId: c', 'containerId: "${CI_DEPLOY_SECRET}"'), 'containerFiles.containerId'],
    [yaml().replace('containerId: c', 'containerId: "c-${CI_DEPLOY_SECRET}"'), 'containerFiles.containerId'],
    [yaml('"${CI_DEPLOY_SECRET}"'), 'baseUrl'],
    [yaml(undefined, '  regionalBaseUrl: "http://127.0.0.1:2/${CI_DEPLOY_SECRET}"\n'), 'interns.regionalBaseUrl'],
    [yaml().replace('model: a/b', 'model: "a/${CI_DEPLOY_SECRET}"'), 'modelEndpoints.model'],
    [
      yaml().replace(
        'workspaceId: w',
        'workspaceId: w\n  params: { limit: l, status: "${CI_DEPLOY_SECRET}", workspace: w }',
      ),
      'interns.params.status',
    ],
  ];
  for (const [text, field] of cases) {
    const message = refusal(() => parseTarget(text, 'target.yaml', { env }));
    expect(message).toBe(
      `target file target.yaml: ${field} names the environment variable CI_DEPLOY_SECRET; only apiKey and restrictedApiKey read the environment (write the value itself)`,
    );
    expect(message).not.toContain('deploy-secret-value');
  }
  // A key is one variable or one literal: a mix would pull a value the mask does not know whole.
  const mixed = yaml().replace('${LIMITS_KEY}', '"sk-${LIMITS_KEY}"');
  expect(refusal(() => parseTarget(mixed, 'target.yaml', { env, allowLiteralKeys: true }))).toBe(
    'target file target.yaml: apiKey mixes ${VAR} with other text; write ${ENV_VAR} alone',
  );
  // A dollar sign that names no variable is a value like any other.
  expect(
    parseTarget(yaml().replace('containerId: c', 'containerId: "c$1"'), 'target.yaml', { env }).containerFiles
      .containerId,
  ).toBe('c$1');
});
