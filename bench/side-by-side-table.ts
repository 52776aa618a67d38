/** Renders the side-by-side figures (bench/side-by-side.ts): the contenders, the targets, the phases of a run. */
import { commandLabel, type SuiteCommand } from './commands.ts';
import { PHASES, type Timeline } from './probe.ts';
import { peerBaseline, peerCaught, suiteCaught, type BenchResults } from './results.ts';
import type { Contender, ContenderRun, SideBySide } from './side-by-side.ts';
import { fmtNumber, fmtSeconds, median, spread, table, type Spread } from './stats.ts';

const sec = (ms: number | undefined, d = 2) => (ms === undefined || !Number.isFinite(ms) ? 'n/a' : `${(ms / 1000).toFixed(d)} s`);

function contender(s: SideBySide, id: string): Contender | undefined {
  return s.contenders.find((c) => c.id === id && c.runs.some((r) => !r.problem));
}

/** Walls of the runs that completed (a run with a problem is not timed as a result). */
function walls(c: Contender | undefined): number[] {
  return (c?.runs ?? []).filter((r) => !r.problem && Number.isFinite(r.wallMs)).map((r) => r.wallMs);
}

/**
 * `f(a, b)` of one figure of a run (the wall unless `of` says another) for each round where both ran
 * and completed with that figure: a ratio or a difference measured in one round.
 */
function paired(a: Contender | undefined, b: Contender | undefined, f: (x: number, y: number) => number, of: (r: ContenderRun) => number | undefined = (r) => r.wallMs): Spread | undefined {
  if (!a || !b) return undefined;
  const n = Math.min(a.runs.length, b.runs.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a.runs[i]!;
    const y = b.runs[i]!;
    const fx = of(x);
    const fy = of(y);
    if (x.problem || y.problem || fx === undefined || fy === undefined || !Number.isFinite(fx) || !Number.isFinite(fy)) continue;
    const v = f(fx, fy);
    // A ratio over a zero (a CPU time too small to read) compares nothing.
    if (Number.isFinite(v)) out.push(v);
  }
  return spread(out);
}

const ratio = (a: Contender | undefined, b: Contender | undefined) => paired(a, b, (x, y) => x / y);
const cpuRatio = (a: Contender | undefined, b: Contender | undefined) => paired(a, b, (x, y) => x / y, (r) => r.cpuS);
const saved = (a: Contender | undefined, b: Contender | undefined) => paired(a, b, (x, y) => x - y);
const fmtRatio = (s: Spread | undefined) => fmtNumber(s, '×', 2);
const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? '**met**' : '**not met**');

function outcome(c: Contender): string {
  const ok = c.runs.filter((r) => !r.problem);
  if (ok.length === 0) return `did not complete: ${c.runs[0]?.problem ?? 'not run'}`;
  const parts: string[] = [];
  const exits = [...new Set(ok.map((r) => r.exitCode))];
  parts.push(`exit ${exits.join('/')}`);
  const verdicts = [...new Set(ok.map((r) => r.verdict).filter((v) => v && v !== 'none'))];
  if (verdicts.length) parts.push(verdicts.join('/'));
  const line = ok.find((r) => r.line)?.line;
  if (line) parts.push(`“${line.slice(0, 140)}”`);
  const req = spread(ok.map((r) => r.requests));
  if (req) parts.push(`${fmtNumber(req)} requests`);
  const failures = spread(ok.map((r) => r.failures));
  if (failures && failures.max > 0) parts.push(`${fmtNumber(failures)} ${c.peer ? 'failures reported' : 'checks failed'}`);
  const workers = spread(ok.map((r) => r.workers));
  const split = ok.map((r) => r.split).filter((x): x is NonNullable<typeof x> => x !== undefined);
  if (split.length) parts.push(`import ${fmtSeconds(spread(split.map((x) => x.importMs)))}, run ${fmtSeconds(spread(split.map((x) => x.runMs)))}`);
  if (workers && !c.peer && c.contest !== 'start-up' && workers.max > 0) parts.push(`${fmtNumber(workers)} Playwright worker${workers.max === 1 ? '' : 's'}`);
  const failed = c.runs.length - ok.length;
  if (failed) parts.push(`${failed} run(s) did not complete`);
  return parts.join('; ');
}

/** Every contender: wall, CPU, what it ended with. */
export function sideBySideTable(r: BenchResults): string {
  const s = r.sideBySide;
  if (!s) return '';
  const rows = s.contenders.map((c) => [c.contest, c.label, fmtSeconds(spread(walls(c))), fmtNumber(spread(c.runs.filter((x) => !x.problem).map((x) => x.cpuS)), 's', 1), outcome(c)]);
  return (
    `${s.rounds} rounds; in each, every contender ran once, in an order rotated from round to round, so a load that drifts weighs on all alike. Ratios and savings below are taken within a round, then their median over the rounds (min–max beside).\n\n` +
    table(['contest', 'contender', 'wall (median, min–max)', 'CPU user+sys', 'outcome'], rows)
  );
}

/** The suite's targets (issue 12) and the start-up the compiled package saves (issue 16), from one bench. */
export function targetsSection(r: BenchResults): string {
  const s = r.sideBySide;
  if (!s) return '- the side by side was not run.';
  const lines: string[] = [];
  const commands = (['npm', 'tsx', 'dist'] as SuiteCommand[]).filter((c) => s.contenders.some((x) => x.id === `default:${c}`));
  const def = (c: SuiteCommand) => contender(s, `default:${c}`);
  const help = (c: SuiteCommand) => contender(s, `help:${c}`);
  // The targets of issue 22: ≤ 2.5 s compiled, ≤ 3.0 s by npm run conformance (tsx: stated, no target).
  const limits: Partial<Record<SuiteCommand, number>> = { dist: 2500, npm: 3000 };
  const defaults = commands.map((c) => {
    const m = median(walls(def(c)));
    const limit = limits[c];
    return `${commandLabel(c)} ${sec(m)}${limit === undefined ? '' : ` (≤ ${sec(limit, 1)}: ${verdict(m === undefined ? undefined : m <= limit)})`}`;
  });
  lines.push(`- Default run on the embedded reference, start-up included: ${defaults.join('; ')}.`);
  if (commands.includes('dist')) {
    const helps = commands.map((c) => `${commandLabel(c)} ${sec(median(walls(help(c))))}`).join(', ');
    const savedBy = commands
      .filter((c) => c !== 'dist')
      .map((c) => `against ${commandLabel(c)}: ${fmtSeconds(saved(help(c), help('dist')))} at \`--help\`, ${fmtSeconds(saved(def(c), def('dist')))} on the default run (${fmtRatio(ratio(def('dist'), def(c)))} of its wall)`);
    lines.push(`- Start-up saved by running compiled JavaScript: \`--help\` takes ${helps}; the compiled package saves, ${savedBy.join('; ')}.`);
  }
  const faults = r.targets.filter((t) => t.kind === 'fault');
  const ours = faults.filter((t) => suiteCaught(t).caught).length;
  const caught = new Map(r.peers.filter((p) => p.available).map((p) => [p.name, caughtBy(r, faults, p.name)]));
  for (const peer of r.peers.filter((p) => p.available)) {
    const theirs = caught.get(peer.name)!;
    const pc = contender(s, `peer:${peer.name}`);
    const against = (['tsx', 'dist'] as SuiteCommand[])
      .filter((c) => s.contenders.some((x) => x.id === `reference:${c}`))
      .map((c) => {
        const q = ratio(contender(s, `reference:${c}`), pc);
        return `${commandLabel(c)} ${fmtRatio(q)} ${verdict(q === undefined ? undefined : q.median <= 1.5)}`;
      });
    const sample = faults.length < 20 ? ' (a sample of the catalogue)' : '';
    // The target is stated against Schemathesis; other peers are shown for comparison only.
    if (peer.name === 'Schemathesis') {
      lines.push(`- ≤ 1.5× ${peer.name}'s wall on the same reference (${sec(median(walls(pc)))} median), catching strictly more: ${against.join('; ')}; faults caught ${ours} against ${theirs} of ${faults.length}${sample} ${verdict(faults.length ? ours > theirs : undefined)}.`);
    } else {
      lines.push(`- For comparison, ${peer.name} on the same reference: ${sec(median(walls(pc)))} median; the suite's wall over it ${against.map((a) => a.replace(/ \*\*.*\*\*$/, '')).join('; ')}; faults caught ${ours} against ${theirs} of ${faults.length}${sample}.`);
    }
  }
  lines.push(...independentLines(s, ours, caught.get('Schemathesis'), faults.length));
  const ref = contender(s, 'reference:tsx') ?? s.contenders.find((c) => c.contest === 'reference');
  for (const c of s.contenders.filter((x) => x.contest === 'failing target')) {
    const q = ratio(contender(s, c.id), ref);
    lines.push(`- A target that fails every check ≤ 2× a conformant run (${ref ? ref.label : 'n/a'}, ${sec(median(walls(ref)))}): ${c.label.replace(/^.*--target: /, '')}: ${sec(median(walls(contender(s, c.id))))}, ${fmtRatio(q)} ${verdict(q === undefined ? undefined : q.median <= 2)}.`);
  }
  return lines.join('\n');
}

/** Faults of `faults` the peer named `name` caught. */
function caughtBy(r: BenchResults, faults: BenchResults['targets'], name: string): number {
  const baseline = peerBaseline(r.targets, name);
  return faults.filter((t) => peerCaught(t, name, baseline).caught).length;
}

/** Issue 22's targets on the independent server: the compiled command and the in-process engine against Schemathesis. */
function independentLines(s: SideBySide, ours: number, theirs: number | undefined, faults: number): string[] {
  const dist = contender(s, 'independent:dist');
  const inProcess = contender(s, 'independent:in-process');
  const st = contender(s, 'independent:Schemathesis');
  if (!dist && !inProcess) return [];
  const lines: string[] = [];
  if (!st) {
    lines.push(`- On the independent server (bench/independent/): ${dist ? `${dist.label} ${sec(median(walls(dist)))}` : ''}${inProcess ? `; in one process ${sec(median(walls(inProcess)))}` : ''}; Schemathesis did not run, so the ratios are not measured.`);
    return lines;
  }
  const wall = ratio(dist, st);
  const cpu = cpuRatio(dist, st);
  const catches = theirs === undefined || faults === 0 ? '' : `; faults of the catalogue caught ${ours} against ${theirs} of ${faults} ${verdict(ours > theirs)}`;
  lines.push(`- The compiled command ≤ 1.3× Schemathesis's wall on the independent server (bench/independent/, written from the document apart from the reference; Schemathesis ${sec(median(walls(st)))} median): ${sec(median(walls(dist)))}, ${fmtRatio(wall)} ${verdict(wall === undefined ? undefined : wall.median <= 1.3)}${catches}.`);
  lines.push(`- CPU of a run ≤ 2× Schemathesis's on the same server: ${fmtRatio(cpu)} ${verdict(cpu === undefined ? undefined : cpu.median <= 2)}.`);
  if (inProcess) {
    const q = ratio(inProcess, st);
    lines.push(`- The same engine in one process (\`runConformance\`, no command line, no Playwright): ${sec(median(walls(inProcess)))}, ${fmtRatio(q)} of Schemathesis's wall; the command's wall over it ${fmtRatio(ratio(dist, inProcess))}.`);
  }
  return lines;
}

/** Where the time of a run goes: the probed runs' phases, median per command and target. */
export function phasesTable(r: BenchResults): string {
  const sets = (r.sideBySide?.probed ?? []).filter((p) => p.timelines.length > 0);
  if (!sets.length) return '';
  const med = (ts: readonly Timeline[], f: (t: Timeline) => number | undefined) => median(ts.map(f).filter((x): x is number => x !== undefined && Number.isFinite(x)));
  const row = (ph: (typeof PHASES)[number]) => [ph.parallel ? `(beside Playwright, in the command) ${ph.name}` : ph.name, ph.measuredAs, ...sets.map((p) => sec(med(p.timelines, ph.of)))];
  const rows = PHASES.filter((ph) => !ph.parallel).map(row);
  rows.push(['total', 'spawn → exit', ...sets.map((p) => sec(med(p.timelines, (t) => t.exit)))]);
  rows.push(...PHASES.filter((ph) => ph.parallel).map(row));
  rows.push(['requests sent, the preflight included', "diagnostics channel in the command's process", ...sets.map((p) => fmtNumber(spread(p.timelines.map((t) => t.requests))))]);
  rows.push(['Playwright worker processes', 'processes probed', ...sets.map((p) => fmtNumber(spread(p.timelines.map((t) => t.workers))))]);
  return (
    `Probed runs (${sets[0]!.timelines.length} per column, apart from the timed ones): a preload in every Node process of the run records when it started and exited and, through Node's diagnostics channels, its first and last HTTP request and local-socket connection; report.json's run.startedAt says when the run began (the preflight passed). Medians; the rows above "total" follow one another from spawn to exit, along Playwright's side of the run; the rows below it run beside them, in the command's process.\n\n` +
    table(['phase', 'measured as', ...sets.map((p) => p.label)], rows)
  );
}
