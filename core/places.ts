/**
 * Places taken and left: the engine's places for checks in flight, the run's for requests in flight.
 * A holder leaving hands its place to the waiting one of lowest rank, the first come among equals.
 */
export class Places {
  private held = 0;
  /** Waiting holders, by rank then by arrival. */
  private readonly waiting: Array<{ rank: number; taken: () => void }> = [];

  /** Waits until fewer than `size` places are held, and holds one; a lower `rank` is served first. */
  async take(size: number, rank = 0): Promise<void> {
    if (this.held < size) {
      this.held++;
      return;
    }
    await new Promise<void>((taken) => {
      // Few wait: what the checks in flight ask at once (their property runs, a gather's walks).
      let at = this.waiting.length;
      while (at > 0 && this.waiting[at - 1]!.rank > rank) at--;
      this.waiting.splice(at, 0, { rank, taken });
    });
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next.taken();
    else this.held--;
  }
}
