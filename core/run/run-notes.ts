import type { RunNote } from '../check/judge.ts';

/** Characters of notes a run keeps in all (ids, paths, cursors): beyond them what comes is not kept, and said. */
export const RUN_NOTES_MAX_CHARS = 8 * 1024 * 1024;

/** What a whole-run check reads of the notes: those of one judge, and whether some were not kept. */
export interface RunNotesView {
  of(judgeId: string): readonly unknown[];
  /** Notes not kept because the run's bound was reached (the check says it judged only part of the run). */
  readonly dropped: number;
}

/**
 * The notes the run's judges took of every response, whichever check received it, for the whole-run
 * checks that compare one response with another (walks at two limits, pages at two sizes). Bounded in
 * characters (rule "Hostile input"): a target's bodies cannot grow it past RUN_NOTES_MAX_CHARS; one note per
 * request asked (the first answer), so a page asked by several checks is kept once.
 */
export class RunNotes implements RunNotesView {
  private readonly byJudge = new Map<string, Map<string, unknown>>();
  private chars = 0;
  dropped = 0;

  constructor(private readonly maxChars = RUN_NOTES_MAX_CHARS) {}

  add(judgeId: string, note: RunNote): void {
    let notes = this.byJudge.get(judgeId);
    if (notes?.has(note.key)) return;
    if (this.chars + note.chars + note.key.length > this.maxChars) {
      this.dropped++;
      return;
    }
    if (!notes) this.byJudge.set(judgeId, (notes = new Map()));
    notes.set(note.key, note.value);
    this.chars += note.chars + note.key.length;
  }

  /**
   * In the order of their keys, not of arrival: checks run together (--concurrency), and what a
   * whole-run check compares first must not depend on which response came first.
   */
  of(judgeId: string): readonly unknown[] {
    const notes = this.byJudge.get(judgeId);
    if (!notes) return [];
    return [...notes.keys()].sort().map((k) => notes.get(k));
  }
}
