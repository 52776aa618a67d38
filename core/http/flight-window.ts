/**
 * How many of the run's requests may be in flight at once: --concurrency at most, lowered when the
 * target says it was sent too much at once and raised again as it answers (AIMD, as TCP's congestion
 * window and the AWS SDKs' adaptive retry mode do). One mechanism for every such answer: a 429 or 503
 * (7.1, 8 rule 3), a 408 on list interns (8 rule 4) and a refused or reset connection.
 *
 * - Multiplicative decrease: halved (at least 1) once per congestion event: the answers to requests
 *   sent before the last decrease are that same event, not another one.
 * - Additive increase: one more after a run of usable answers as long as the window; near the size at
 *   which the target last said too much, eight times as long, so that the run seldom asks it again.
 */
export class FlightWindow {
  private current: number;
  /** Bumped by each decrease: a request remembers the epoch it was sent in. */
  private epochs = 0;
  private answersInARow = 0;
  /** The window when the target last said too much (Infinity before it ever did). */
  private congestedAt = Number.POSITIVE_INFINITY;
  /** The smallest the window has been: what a run that still ended without answers says. */
  private lowest: number;

  constructor(readonly max: number) {
    this.current = Math.max(1, Math.floor(max));
    this.lowest = this.current;
  }

  get size(): number {
    return this.current;
  }

  get epoch(): number {
    return this.epochs;
  }

  /**
   * What a request that still got no answer adds to its reason when the target turned requests away
   * while several were in flight: the run sent fewer at once, and one at a time may do.
   */
  hint(): string {
    if (this.lowest >= this.max) return '';
    return ` (the target turned requests away while several were in flight; the run lowered them from ${this.max} to ${this.lowest} at once: try --concurrency 1)`;
  }

  /** The target said too much to a request sent in `epoch`: the window halves, once per event. */
  congested(epoch: number): void {
    this.answersInARow = 0;
    if (epoch !== this.epochs) return;
    this.congestedAt = this.current;
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.lowest = Math.min(this.lowest, this.current);
    this.epochs++;
  }

  /** A usable answer; true when the window grew by it. */
  answered(): boolean {
    if (this.current >= this.max) return false;
    this.answersInARow++;
    const near = this.current + 1 >= this.congestedAt;
    if (this.answersInARow < this.current * (near ? 8 : 1)) return false;
    this.answersInARow = 0;
    this.current++;
    return true;
  }
}
