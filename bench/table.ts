/** Renders the bench's results as Markdown (the console, bench/out/results.md and bench/RESULTS.md). */
import { isDredd2xx } from './peers/dredd.ts';
import { peerBaseline, peerCaught, suiteCaught, suiteFalse, type BenchResults, type TargetResult } from './results.ts';
import { contendersTable, table, targetsSection } from './side-by-side-table.ts';

/** The walls of single runs, as they were (`2.81 s`, `2.81, 2.75 s`): one run each, not a timing. */
function walls(ms: ReadonlyArray<number | undefined>): string {
  const v = ms.filter((x): x is number => x !== undefined && Number.isFinite(x));
  return v.length ? `${v.map((x) => (x / 1000).toFixed(2)).join(', ')} s` : 'n/a';
}

/** Distinct values, `641` or `634/641`. */
function values(xs: ReadonlyArray<number | undefined>): string {
  const v = [...new Set(xs.filter((x): x is number => x !== undefined))];
  return v.length ? v.join('/') : 'n/a';
}

/** A peer column: the tool as run, or a view of its results restricted to some of its failures. */
interface PeerView {
  label: string;
  peer: string;
  filter: (sig: string) => boolean;
  note?: string;
}

function peerViews(r: BenchResults): PeerView[] {
  const views: PeerView[] = [];
  for (const p of r.peers) {
    if (!p.available) continue;
    views.push({ label: p.name, peer: p.name, filter: () => true });
    if (p.name === 'Dredd') {
      views.push({
        label: 'Dredd, 2xx transactions only',
        peer: p.name,
        filter: isDredd2xx,
        note: "the same Dredd runs, counting only the transactions that expect a 2xx (what a user keeps with `--only` or a `before` hook skipping the rest; Dredd's transactions are independent GETs, so the restriction does not change their results)",
      });
    }
  }
  return views;
}

/** The first `n` items, then how many more. */
function abbreviate(xs: readonly string[], n: number): string {
  return xs.slice(0, n).join('; ') + (xs.length > n ? `; … (+${xs.length - n}, listed below)` : '');
}

const sec = (ms: number | undefined, d = 2) => (ms === undefined ? 'n/a' : `${(ms / 1000).toFixed(d)} s`);

function targetsOf(r: BenchResults, ...kinds: TargetResult['kind'][]): TargetResult[] {
  return r.targets.filter((t) => kinds.includes(t.kind));
}

function summary(r: BenchResults): string {
  const faults = targetsOf(r, 'fault');
  const conformant = targetsOf(r, 'conformant');
  const reference = targetsOf(r, 'reference');
  const rows: string[][] = [];
  const caught = faults.filter((t) => suiteCaught(t).caught);
  const onTarget = faults.filter((t) => suiteCaught(t).onTarget);
  const refFalse = reference.flatMap(suiteFalse);
  const varFalse = conformant.filter((t) => suiteFalse(t).length > 0);
  const ref = reference[0];
  const totalSuite = faults.reduce((s, t) => s + (t.suite[0]?.wallMs ?? 0), 0);
  rows.push([
    'this suite',
    `${caught.length} of ${faults.length} (${onTarget.length} on the requirement the fault breaks)`,
    `${faults.filter((t) => suiteCaught(t).exitNonZero).length} of ${faults.length}`,
    refFalse.length ? refFalse.join('; ') : '0',
    `${varFalse.length} of ${conformant.length}${varFalse.length ? ` (${varFalse.filter((t) => t.suite.some((s) => s.failedMust.length > 0 || s.verdict !== 'conformant')).length} with a MUST failed or a verdict other than conformant): ${varFalse.map((t) => `${t.name} (${suiteFalse(t).join(', ')})`).join('; ')}` : ''}`,
    ref ? walls(ref.suite.map((s) => s.wallMs)) : 'n/a',
    ref ? values(ref.suite.map((s) => s.requests)) : 'n/a',
    sec(totalSuite, 0),
  ]);
  for (const v of peerViews(r)) {
    const baseline = peerBaseline(r.targets, v.peer, v.filter);
    const c = faults.map((t) => peerCaught(t, v.peer, baseline, v.filter));
    const ran = c.filter((x) => x.ran).length;
    const exitNZ = faults.filter((t) => (t.peers[v.peer]?.[0]?.exitCode ?? 0) !== 0).length;
    const varF = conformant.filter((t) => (t.peers[v.peer] ?? []).some((p) => p.failures.some(v.filter)));
    const refRuns = ref?.peers[v.peer] ?? [];
    const total = faults.reduce((s, t) => s + (t.peers[v.peer]?.[0]?.wallMs ?? 0), 0);
    rows.push([
      v.label,
      `${c.filter((x) => x.caught).length} of ${faults.length}${ran < faults.length ? ` (${faults.length - ran} runs failed to complete)` : ''}`,
      v.label === v.peer ? `${exitNZ} of ${faults.length}` : '—',
      baseline.size ? `${baseline.size}: ${abbreviate([...baseline], 4)}` : '0',
      `${varF.length} of ${conformant.length}${varF.length ? `: ${varF.map((t) => t.name).join(', ')}` : ''}`,
      v.label === v.peer ? walls(refRuns.map((p) => p.wallMs)) : '(same runs)',
      v.label === v.peer ? values(refRuns.map((p) => p.requests)) : '(same runs)',
      v.label === v.peer ? sec(total, 0) : '(same runs)',
    ]);
  }
  return table(
    [
      'tool',
      'faults caught (a failure the plain reference does not give)',
      'exit ≠ 0 on a fault',
      'false failures on the plain reference',
      'conformant variants with a false failure',
      'wall of each run on the reference',
      'requests per run on the reference',
      'wall over the fault catalogue (1 run each)',
    ],
    rows,
  );
}

function conformantTable(r: BenchResults): string {
  const views = peerViews(r).filter((v) => v.label === v.peer);
  const rows = targetsOf(r, 'reference', 'conformant').map((t) => {
    const falseF = suiteFalse(t);
    const row = [
      t.name,
      `${[...new Set(t.suite.map((s) => s.verdict))].join('/')}${falseF.length ? ` — ${falseF.join('; ')}` : ''}`,
      walls(t.suite.map((s) => s.wallMs)),
      values(t.suite.map((s) => s.requests)),
    ];
    for (const v of views) {
      const runs = t.peers[v.peer] ?? [];
      const fails = [...new Set(runs.flatMap((p) => p.failures))];
      const problem = runs.find((p) => p.problem)?.problem;
      row.push(
        runs.length === 0
          ? '—'
          : `${problem ? `did not complete: ${problem}; ` : ''}${fails.length} failure${fails.length === 1 ? '' : 's'}; ${walls(runs.map((p) => p.wallMs))}; ${values(runs.map((p) => p.requests))} req`,
      );
    }
    return row;
  });
  return table(
    [
      'target',
      'suite verdict',
      'suite wall of each run',
      'requests',
      ...views.map((v) => `${v.label}: failures; wall; requests`),
    ],
    rows,
  );
}

function faultTable(r: BenchResults): string {
  const views = peerViews(r);
  const baselines = new Map(views.map((v) => [v.label, peerBaseline(r.targets, v.peer, v.filter)]));
  const rows = targetsOf(r, 'fault').map((t) => {
    const s = t.suite[0];
    const c = suiteCaught(t);
    const row = [
      t.name,
      (t.breaks ?? []).join(', '),
      !s
        ? 'n/a'
        : s.problem
          ? `did not complete: ${s.problem}`
          : c.onTarget
            ? '✔'
            : c.caught
              ? `✔ (other: ${s.failedRequirements.join(', ')})`
              : '✘',
      s ? `${sec(s.wallMs)}, ${s.requests} req` : 'n/a',
    ];
    for (const v of views) {
      const run = t.peers[v.peer]?.[0];
      if (!run) {
        row.push('—');
        continue;
      }
      const pc = peerCaught(t, v.peer, baselines.get(v.label) ?? new Set(), v.filter);
      const mark = run.problem
        ? `did not complete: ${run.problem}`
        : pc.caught
          ? `✔ ${pc.newFailures.slice(0, 2).join('; ')}${pc.newFailures.length > 2 ? ` (+${pc.newFailures.length - 2})` : ''}`
          : '✘';
      row.push(v.label === v.peer ? `${mark} (${sec(run.wallMs, 1)}, ${run.requests} req)` : mark);
    }
    return row;
  });
  return table(['fault', 'breaks', 'suite caught', 'suite wall, requests', ...views.map((v) => v.label)], rows);
}

function falseFailures(r: BenchResults): string {
  const lines: string[] = [];
  for (const p of r.peers.filter((x) => x.available)) {
    const base = peerBaseline(r.targets, p.name);
    lines.push(
      `- *${p.name}* on the plain reference (${base.size}): ${base.size ? [...base].map((f) => `\`${f}\``).join(', ') : 'none'}.`,
    );
    for (const t of targetsOf(r, 'conformant')) {
      const extra = [...new Set((t.peers[p.name] ?? []).flatMap((x) => x.failures))].filter((f) => !base.has(f));
      if (extra.length) lines.push(`  - on \`${t.name}\`, beyond those: ${extra.map((f) => `\`${f}\``).join(', ')}.`);
    }
  }
  return lines.join('\n');
}

/** Who caught which fault, in a few lines before the row per fault. */
function faultDigest(r: BenchResults): string {
  const faults = targetsOf(r, 'fault');
  const ours = new Set(faults.filter((t) => suiteCaught(t).caught).map((t) => t.name));
  const lines: string[] = [];
  const missed = faults.filter((t) => !ours.has(t.name)).map((t) => t.name);
  lines.push(
    `- this suite: ${ours.size} of ${faults.length}${missed.length ? `; missed: ${missed.map((n) => `\`${n}\``).join(', ')}` : ''}.`,
  );
  for (const v of peerViews(r)) {
    const baseline = peerBaseline(r.targets, v.peer, v.filter);
    const caught = faults.filter((t) => peerCaught(t, v.peer, baseline, v.filter).caught).map((t) => t.name);
    const beyond = caught.filter((n) => !ours.has(n));
    lines.push(
      `- ${v.label}: ${caught.length} of ${faults.length}${caught.length ? `: ${caught.map((n) => `\`${n}\``).join(', ')}` : ''}${beyond.length ? ` (not caught by this suite: ${beyond.join(', ')})` : ''}.`,
    );
  }
  return lines.join('\n');
}

/** Who the figures are from: when, the command, the commit, the machine, Node.js and the other versions, in one table. */
export function headerTable(r: BenchResults): string {
  const m = r.machine;
  const { node, commit, ...others } = r.versions;
  const peers = r.peers
    .map((p) => (p.available ? `${p.name} ${p.version}` : `${p.name}: not run — ${p.reason}`))
    .join('; ');
  const timed = r.sideBySide ?? r.latency;
  const runs = [
    r.mode,
    ...(timed ? [`${timed.runs} timed run(s) per contender side by side`] : []),
    ...(r.targets.length
      ? [`${r.runs} verdict run${r.runs === 1 ? '' : 's'} per conformant variant, 1 per fault`]
      : []),
    `seed ${r.seed}`,
  ].join('; ');
  const rows: [string, string][] = [
    ['Date', r.date],
    ['Command', `\`${r.command}\` (${runs}; took ${sec(r.elapsedMs, 0)})`],
    ['Commit', commit ?? 'unknown (not a git checkout)'],
    ['Machine', `${m.cpu}, ${m.nproc} cores, ${m.memoryGb.toFixed(0)} GB memory; ${m.os}`],
    ['Node.js', node ?? 'unknown'],
    [
      'Load average',
      `${m.loadavgStart.map((x) => x.toFixed(1)).join('/')} at the start, ${m.loadavgEnd.map((x) => x.toFixed(1)).join('/')} at the end (other work on the machine inflates wall times; CPU times are less affected)`,
    ],
    [
      'Versions',
      Object.entries(others)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    ],
    ['Peers', peers || 'none'],
  ];
  return table(['', ''], rows);
}

/** The bench's results as Markdown: the header, then every table (the console, bench/out/results.md and bench/RESULTS.md). */
export function renderMarkdown(r: BenchResults): string {
  const parts: string[] = [];
  if (r.partial)
    parts.push('**Partial results: the bench was still running or was interrupted when this was written.**');
  parts.push(headerTable(r));
  parts.push(`### Targets\n\n${targetsSection(r)}`);
  if (r.sideBySide) parts.push(`### Side by side\n\n${contendersTable(r.sideBySide)}`);
  if (r.latency)
    parts.push(
      `### At ${r.latency.delayMs} ms per request\n\nThe independent server behind a loopback proxy that holds every request ${r.latency.delayMs} ms (bench/delay-proxy.ts: a deployment in another region). ` +
        contendersTable(r.latency),
    );
  if (r.targets.length) {
    parts.push(`### Faults caught and false failures\n\n${summary(r)}`);
    const notes = peerViews(r)
      .filter((v) => v.note)
      .map((v) => `- *${v.label}*: ${v.note}.`);
    const cfg = r.peers.filter((p) => p.available).map((p) => `- *${p.name}*: ${p.configuration}.`);
    parts.push(
      [
        'How to read it:',
        '- *caught*, for this suite: the report fails a requirement (✔ when it is one the fault `breaks`); for a peer: it reports a failure it does not also report on the plain reference (its false failures there are not credited as catches).',
        "- *false failures*: failures on the plain reference or on a conformant variant (reference/variants.ts), which the document allows; a peer's are listed by its own names.",
        "- *wall* in these tables: spawn to exit of each verdict run, one run each (the timing side by side is hyperfine's, above).",
        ...cfg,
        ...notes,
      ].join('\n'),
    );
    parts.push(`### Reference and conformant variants\n\n${conformantTable(r)}`);
    const ff = falseFailures(r);
    if (ff) parts.push(`### The peers' false failures\n\n${ff}`);
    if (targetsOf(r, 'fault').length) {
      parts.push(`### Faults caught\n\n${faultDigest(r)}`);
      parts.push(`### Faults\n\n${faultTable(r)}`);
    }
  }
  if (r.problems.length) parts.push(`### What could not be measured\n\n${r.problems.map((p) => `- ${p}`).join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}
