import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { verdictLine } from '../reports/format.ts';
import { runEngineAgainst } from './support/harness.ts';

// The README's words hold. Each example verdict line of "Running it against your
// deployment" is what a real run prints, numbers and the request path aside.
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = README.slice(
  README.indexOf('## Running it against your deployment'),
  README.indexOf('### Trying it on the reference started by hand'),
);
const examples = [...section.matchAll(/^verdict: (.+?)(?:\s+#.*)?$/gm)].map((m) => m[1]!.trim());

/** The line as a pattern: its numbers any number, the path after GET any path. */
const pattern = (line: string) =>
  new RegExp(
    `^${line
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\d+/g, '\\d+')
      .replace(/GET \\S+|GET \/\S+/, 'GET \\S+')}$`,
  );

test('the README shows the four example verdict lines', () => {
  expect(examples).toHaveLength(4);
});

test("each of the README's example verdict lines is what a real run says", async () => {
  test.setTimeout(120_000);
  const lines = [
    // --grep or one --shard: four checks of the whole.
    verdictLine(
      await runEngineAgainst(
        {},
        {
          select: (id) =>
            ['general.json-body', 'general.errors.shape', 'general.base-url-v1', 'general.json-media-type'].includes(
              id,
            ),
        },
      ),
    ),
    // An optional field left out.
    verdictLine(await runEngineAgainst({}, { editTarget: (t) => delete t.restrictedApiKey })),
    // A budget too small for the run.
    verdictLine(await runEngineAgainst({}, { settings: { maxRequests: 50 } })),
    // A server breaking a MUST and a SHOULD of one point.
    verdictLine(await runEngineAgainst({ faults: ['interns-malformed-workspace-accepted'] })),
  ];
  expect(examples).toHaveLength(lines.length);
  for (const [i, example] of examples.entries())
    expect(lines[i], `README line ${i + 1}: ${example}`).toMatch(pattern(example));
});
