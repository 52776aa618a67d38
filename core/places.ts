/**
 * Places taken and left, first come first served: the engine's places for checks in flight, the
 * run's for requests in flight. A holder leaving hands its place to the first waiting.
 */
export class Places {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  /** Waits until fewer than `size` places are held, and holds one. */
  async take(size: number): Promise<void> {
    if (this.held < size) this.held++;
    else await new Promise<void>((taken) => this.waiting.push(taken));
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  }
}
