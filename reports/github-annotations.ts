import { catalogue } from '../core/document/catalogue.ts';
import type { ConformanceReport } from './model.ts';

/**
 * One GitHub workflow annotation per failing requirement (`::error title=…::…`, a SHOULD that does
 * not gate the run a `::warning`): its level and id, what it requires, the run's first failure of it,
 * and the document's own words it rests on (spec/requirements.yaml `basis`). The command prints them
 * when it runs in GitHub Actions (GITHUB_ACTIONS=true), from the report it wrote: one source for the
 * Action, the log and report.json alike.
 */

/** Longest message of one annotation: GitHub shows a few lines of it; the report has the rest. */
const MAX_MESSAGE = 2_000;

/** A workflow command's data: % CR LF escaped as the runner reads them back (GitHub's workflow-command rules). */
export function escapeData(s: string): string {
  return s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A workflow command's property value: as its data, and `:` and `,` too, which end a property. */
export function escapeProperty(s: string): string {
  return escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** `masked`: the run's mask, applied before the escapes (a key holding `%` is found as written). */
export function githubAnnotations(report: ConformanceReport, masked: (s: string) => string = (s) => s): string[] {
  const byId = catalogue().byId;
  return report.requirements
    .filter((r) => r.status === 'fail')
    .map((r) => {
      const gating = r.level === 'MUST' || (r.level === 'SHOULD' && report.run.failOn === 'should');
      const basis = (byId.get(r.id)?.basis ?? []).map((b) => `${b.section}: "${b.quote}"`).join('; ');
      const message = [
        r.statement,
        `Failed: ${r.reason ?? 'see the report'}`,
        ...(basis ? [`The document, ${basis}`] : []),
      ].join('\n');
      const text = masked(message);
      const cut = text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
      const title = `${r.level} ${r.id} (section ${r.section})${gating ? '' : ' (not gating)'}`;
      return `::${gating ? 'error' : 'warning'} title=${escapeProperty(title)}::${escapeData(cut)}`;
    });
}
