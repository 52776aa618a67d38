/** Renders the side-by-side rows (bench/side-by-side.ts): the contenders as hyperfine timed them, and the suite's targets. */
import { commandLabel, type SuiteCommand } from './commands.ts';
import { peerBaseline, peerCaught, suiteCaught, type BenchResults } from './results.ts';
import type { Contender, SideBySide } from './side-by-side.ts';
import type { Timing } from './run.ts';

const sec = (s: number | undefined, d = 2) => (s === undefined || !Number.isFinite(s) ? 'n/a' : `${s.toFixed(d)} s`);
const verdict = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? '**met**' : '**not met**');

/** `2.31 s ± 0.05 (2.24–2.50)`: hyperfine's mean, standard deviation, min–max. */
function wall(t: Timing | undefined): string {
  if (!t) return 'not timed';
  return t.times.length > 1
    ? `${sec(t.mean)} ± ${(t.stddev ?? 0).toFixed(2)} (${t.min.toFixed(2)}–${t.max.toFixed(2)})`
    : `${sec(t.mean)} (1 run)`;
}

/** A Markdown table, its cells escaped. */
export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (r: readonly string[]) => `| ${r.map((c) => c.replace(/\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** a/b of two means, ± as hyperfine propagates it (relative errors added in quadrature); of another figure when `of` says. */
function ratio(
  a: Timing | undefined,
  b: Timing | undefined,
  of?: (t: Timing) => number,
): { r: number; text: string } | undefined {
  if (!a || !b) return undefined;
  const r = of ? of(a) / of(b) : a.mean / b.mean;
  if (!Number.isFinite(r)) return undefined;
  const e =
    of || a.stddev === null || b.stddev === null
      ? ''
      : ` ± ${(r * Math.hypot(a.stddev / a.mean, b.stddev / b.mean)).toFixed(2)}`;
  return { r, text: `${r.toFixed(2)} ×${e}` };
}
const cpu = (t: Timing) => t.user + t.system;

function find(s: SideBySide | undefined, id: string): Contender | undefined {
  return s?.contenders.find((c) => c.id === id);
}
const timing = (s: SideBySide | undefined, id: string) => find(s, id)?.timing;

function outcome(c: Contender): string {
  const o = c.outcome;
  if (o.problem) return `did not complete: ${o.problem}`;
  const parts = [`exit ${o.exitCode}`];
  if (o.verdict && o.verdict !== 'none') parts.push(o.verdict);
  if (o.line) parts.push(`“${o.line.slice(0, 140)}”`);
  if (o.requests !== undefined)
    parts.push(`${o.requests} requests${o.saved ? `, ${o.saved} answered from the run's memory` : ''}`);
  if (o.failures) parts.push(`${o.failures} ${c.peer ? 'failures reported' : 'checks failed'}`);
  if (o.split) parts.push(`import ${sec(o.split.importMs / 1000)}, run ${sec(o.split.runMs / 1000)}`);
  const exits = [...new Set(c.timing?.exit_codes ?? [])].filter((x) => x !== o.exitCode);
  if (exits.length) parts.push(`timed runs also exited ${exits.join('/')}`);
  return parts.join('; ');
}

/** Every contender of a row: hyperfine's wall and CPU, and what its untimed run said. */
export function contendersTable(s: SideBySide): string {
  // One contest (the latency row) needs no column of its own.
  const contests = new Set(s.contenders.map((c) => c.contest)).size > 1;
  const rows = s.contenders.map((c) => [
    ...(contests ? [c.contest] : []),
    c.label,
    wall(c.timing),
    c.timing ? `${cpu(c.timing).toFixed(1)} s` : 'n/a',
    outcome(c),
  ]);
  return (
    `Each contender ran once for what it says (outcome), then ${s.runs === 1 ? 'once' : `${s.runs} times`} under hyperfine (\`--runs ${s.runs} --shell=none --ignore-failure\`), one contender's runs after the other's; a ratio below is of hyperfine's means, ± as hyperfine propagates it. hyperfine's JSON export is kept beside results.json.\n\n` +
    table(
      [...(contests ? ['contest'] : []), 'contender', 'wall (mean ± sd, min–max)', 'CPU user+sys (mean)', 'outcome'],
      rows,
    )
  );
}

/** The suite's targets, each against what it is stated against. */
export function targetsSection(r: BenchResults): string {
  const s = r.sideBySide;
  const lines: string[] = [];
  if (s) {
    const commands = (['npm', 'tsx', 'dist'] as SuiteCommand[]).filter((c) => find(s, `default:${c}`));
    const limits: Partial<Record<SuiteCommand, number>> = { dist: 2.5, npm: 3.0 };
    const defaults = commands.map((c) => {
      const m = timing(s, `default:${c}`)?.mean;
      const limit = limits[c];
      return `${commandLabel(c)} ${sec(m)}${limit === undefined ? '' : ` (≤ ${sec(limit, 1)}: ${verdict(m === undefined ? undefined : m <= limit)})`}`;
    });
    lines.push(`- Default run on the embedded reference, start-up included: ${defaults.join('; ')}.`);
    const floor = timing(s, 'playwright-floor');
    const overFloor = commands
      .filter((c) => c !== 'npm')
      .map((c) => `${commandLabel(c)} ${ratio(timing(s, `default:${c}`), floor)?.text ?? 'n/a'}`);
    if (floor)
      lines.push(
        `- Playwright's own start (its runner and one worker on one empty test, the command's compile cache): ${sec(floor.mean)}, the floor of a run whose checks are Playwright tests; the default run's wall over it: ${overFloor.join('; ')}.`,
      );
    if (commands.includes('dist')) {
      const helps = commands.map((c) => `${commandLabel(c)} ${sec(timing(s, `help:${c}`)?.mean)}`).join(', ');
      const saved = (a: string, b: string) =>
        timing(s, a) && timing(s, b) ? sec(timing(s, a)!.mean - timing(s, b)!.mean) : 'n/a';
      const against = commands
        .filter((c) => c !== 'dist')
        .map(
          (c) =>
            `against ${commandLabel(c)}: ${saved(`help:${c}`, 'help:dist')} at \`--help\`, ${saved(`default:${c}`, 'default:dist')} on the default run`,
        );
      lines.push(
        `- Start-up saved by running compiled JavaScript: \`--help\` takes ${helps}${against.length ? `; the compiled package saves, ${against.join('; ')}` : ''}.`,
      );
    }
    const faults = r.targets.filter((t) => t.kind === 'fault');
    const ours = faults.filter((t) => suiteCaught(t).caught).length;
    const theirs = (name: string) =>
      faults.filter((t) => peerCaught(t, name, peerBaseline(r.targets, name)).caught).length;
    const catches = (name: string) =>
      faults.length
        ? `; faults caught ${ours} against ${theirs(name)} of ${faults.length}${faults.length < 20 ? ' (a sample of the catalogue)' : ''} ${verdict(ours > theirs(name))}`
        : '';
    const st = timing(s, 'peer:Schemathesis');
    if (st) {
      const q = (['tsx', 'dist'] as SuiteCommand[])
        .filter((c) => find(s, `reference:${c}`))
        .map((c) => {
          const x = ratio(timing(s, `reference:${c}`), st);
          return `${commandLabel(c)} ${x?.text ?? 'n/a'} ${verdict(x && x.r <= 1.5)}`;
        });
      lines.push(
        `- ≤ 1.5× Schemathesis's wall on the same reference (${sec(st.mean)}), catching strictly more: ${q.join('; ')}${catches('Schemathesis')}.`,
      );
    }
    const dredd = timing(s, 'peer:Dredd');
    if (dredd)
      lines.push(
        `- For comparison, Dredd on the same reference: ${sec(dredd.mean)}; the suite's wall over it ${ratio(timing(s, 'reference:dist') ?? timing(s, 'reference:tsx'), dredd)?.text ?? 'n/a'}${faults.length ? `; faults caught ${ours} against ${theirs('Dredd')} of ${faults.length}` : ''}.`,
      );
    const ist = timing(s, 'independent:Schemathesis');
    const idist = timing(s, 'independent:dist');
    const inproc = timing(s, 'independent:in-process');
    if (ist && idist) {
      const w = ratio(idist, ist);
      const c = ratio(idist, ist, cpu);
      lines.push(
        `- The compiled command ≤ 1.3× Schemathesis's wall on the independent server (bench/independent/, written from the document apart from the reference; Schemathesis ${sec(ist.mean)}): ${sec(idist.mean)}, ${w?.text} ${verdict(w && w.r <= 1.3)}; its CPU ≤ 2× Schemathesis's: ${c?.text} ${verdict(c && c.r <= 2)}.`,
      );
    }
    if (inproc && idist)
      lines.push(
        `- The same engine in one process (\`runConformance\`, no command line, no Playwright): ${sec(inproc.mean)}${ist ? `, ${ratio(inproc, ist)?.text} of Schemathesis's wall` : ''}; the command's wall over it ${ratio(idist, inproc)?.text} (the difference is the command's start and Playwright's runner and worker).`,
      );
    const ref = find(s, 'reference:tsx') ?? s.contenders.find((c) => c.contest === 'reference' && !c.peer);
    for (const c of s.contenders.filter((x) => x.contest === 'failing target')) {
      const q = ratio(c.timing, ref?.timing);
      lines.push(
        `- A target that fails every check ≤ 2× a conformant run (${ref?.label ?? 'n/a'}, ${sec(ref?.timing?.mean)}): ${c.label.replace(/^.*--target: /, '')}: ${sec(c.timing?.mean)}, ${q?.text ?? 'n/a'} ${verdict(q && q.r <= 2)}.`,
      );
    }
  }
  const l = r.latency;
  if (l) {
    const def = l.contenders.find((c) => c.id.endsWith('(default)'))?.timing;
    const st4 = l.contenders.find((c) => c.peer && /4 workers/.test(c.id))?.timing;
    const q = ratio(def, st4);
    lines.push(
      `- At ${l.delayMs} ms per request (the latency row), the default run within 8 s: ${sec(def?.mean)} ${verdict(def && def.mean <= 8)}; within 1.0× the wall of Schemathesis with 4 workers: ${q?.text ?? 'n/a'} ${verdict(q && q.r <= 1)} (goal after that: 0.6×).`,
    );
  }
  return lines.length ? lines.join('\n') : '- the side by side was not run.';
}
