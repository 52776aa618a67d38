/**
 * evidence.har is masked string by string as it is written (reports/har.ts harOf), not read through
 * the mask again as a whole: these tests hold that nothing the whole-file pass would replace is left,
 * for a recording whose bodies, header names and values, URLs and errors echo the keys in every
 * encoding (test/support/echo-server.ts keyEncodings), and for control characters that JSON writes as
 * escapes whose letters complete a key in the file.
 */
import { expect, test } from '@playwright/test';
import { Recorder, recordingTransport } from '../core/http/recorder.ts';
import type { Transport } from '../core/http/transport.ts';
import type { Target } from '../core/target/target.ts';
import { Mask, secretsOf } from '../core/text/mask.ts';
import { harOf, harText, type RecordedRun } from '../reports/har.ts';
import { keyEncodings } from './support/echo-server.ts';
import { HOSTILE_KEYS } from './support/hostile-server.ts';
import { findKeys } from './support/key-scan.ts';

const RUN = { target: {}, suite: { name: 'conformance', version: '0' } } as unknown as RecordedRun;

/** A recording of one request per answer, each answer sent by a transport that says what it is told. */
async function recordingOf(
  answers: ReadonlyArray<{ path: string; body: string; headers?: Record<string, string>; error?: boolean }>,
): Promise<Recorder> {
  const recorder = new Recorder();
  const byPath = new Map(answers.map((a) => [a.path, a]));
  const inner: Transport = {
    get: async (url) => {
      const a = byPath.get(url.pathname)!;
      // An answer that never came, its reason the text (a body's bytes are UTF-8: no lone surrogate there).
      if (a.error) throw new Error(a.body);
      return { status: 200, headers: { 'content-type': 'application/json', ...a.headers }, body: Buffer.from(a.body) };
    },
    close: async () => {},
  };
  const transport = recordingTransport(inner, recorder);
  for (const a of answers)
    await transport
      .get(new URL(`http://127.0.0.1${a.path}?after=${encodeURIComponent(a.body.slice(0, 200).toWellFormed())}`), {})
      .catch((e: Error) => e);
  return recorder;
}

const maskOf = (target: Pick<Target, 'apiKey' | 'restrictedApiKey'>) => new Mask(secretsOf(target as Target));

test('a recording echoing both keys in every encoding: the file as written holds no key, and the whole-file mask finds nothing more', async () => {
  const keys = [HOSTILE_KEYS.HOSTILE_API_KEY, HOSTILE_KEYS.HOSTILE_RESTRICTED_KEY];
  const encodings = keys.flatMap((key) => keyEncodings(key));
  expect(encodings.length).toBeGreaterThan(20);
  const recorder = await recordingOf(
    encodings.map((e, i) => ({
      path: `/v1/echo/${i}`,
      body: JSON.stringify({ object: 'list', data: [{ id: e.text, note: `before ${e.text} after` }], raw: e.text }),
      // Header values with what HTTP allows on the wire; names are tokens (the key plainly, as x-<key>).
      headers: { 'x-echo': e.text.replace(/[^\x20-\x7e]/g, ''), [`x-${keys[i % 2]}`]: '1' },
    })),
  );
  const mask = maskOf({ apiKey: keys[0]!, restrictedApiKey: keys[1]! });
  const text = harText(harOf(recorder, RUN, mask));
  expect(findKeys(text, keys)).toEqual([]);
  expect(mask.text(text) === text, 'the whole-file mask changes nothing').toBe(true);
});

for (const [name, char, letters, where] of [
  ['a control character', '\u0005', 'u0005', 'body'],
  ['a lone surrogate', '\ud800', 'ud800', 'error'],
] as const)
  test(`${name} JSON writes as letters that complete a key: masked as the file shows it`, async () => {
    // The file shows the character as `\${letters}`: after its backslash (no key's character), the key
    // below is spelled in the file letter for letter, though the body itself does not hold it.
    const key = `${letters}-efgh-ijkl-mnop-qrst-uvwx`;
    const body = `{"id":"${char}-efgh-ijkl-mnop-qrst-uvwx"}`;
    expect(JSON.stringify(body)).toContain(key);
    const recorder = await recordingOf([{ path: '/v1/written', body, error: where === 'error' }]);
    const mask = maskOf({ apiKey: key });
    // Alone, the body spells no key (the character is between its parts).
    expect(mask.text(body)).toBe(body);
    const text = harText(harOf(recorder, RUN, mask));
    expect(text).not.toContain(key);
    expect(text).toContain(where === 'error' ? '"_error"' : '"text"');
    expect(mask.text(text) === text, 'the whole-file mask changes nothing').toBe(true);
  });

test('a string JSON writes as it is is kept exactly as the target sent it', async () => {
  const plain = await recordingOf([{ path: '/v1/plain', body: '{"id":"abcd-efgh \ud83d\ude00"}' }]);
  const mask = maskOf({ apiKey: 'u0005-efgh-ijkl-mnop-qrst-uvwx' });
  expect(harOf(plain, RUN, mask).log.entries[0]!.response.content.text).toBe('{"id":"abcd-efgh \ud83d\ude00"}');
});

test("the run's own data in the recording (target view, replay) is masked too", async () => {
  const key = HOSTILE_KEYS.HOSTILE_API_KEY;
  const recorder = await recordingOf([{ path: '/v1/x', body: '{}' }]);
  const run = {
    ...RUN,
    replay: `npm run conformance -- --header X-Token:${key}`,
    target: { baseUrl: `http://127.0.0.1/${key}/v1` },
  };
  const text = harText(harOf(recorder, run, maskOf({ apiKey: key })));
  expect(findKeys(text, [key])).toEqual([]);
  expect(text).toContain('X-Token:$API_KEY');
});
