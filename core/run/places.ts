/** A holder's place in line: its rank may be lowered while it waits (a request others wait on too). */
export interface Ticket {
  rank: number;
}

/**
 * Places taken and left: the engine's places for checks in flight, the run's for requests in flight.
 * A holder leaving hands its place to the waiting one of lowest rank, the first come among equals.
 */
export class Places {
  private held = 0;
  /** Waiting holders, by rank then by arrival. */
  private readonly waiting: Array<{ ticket: Ticket; taken: () => void }> = [];

  /** Waits until fewer than `size` places are held, and holds one; a lower rank is served first. */
  async take(size: number, ticket: Ticket = { rank: 0 }): Promise<void> {
    if (this.held < size) {
      this.held++;
      return;
    }
    await new Promise<void>((taken) => this.line({ ticket, taken }));
  }

  /**
   * Serves a ticket no later than one of `rank`, whether it waits here now or comes later (one ticket
   * may wait in several Places in turn): a request sent for one check that a check served before it
   * waits on too is not left behind the requests it should go before.
   */
  raise(ticket: Ticket, rank: number): void {
    ticket.rank = Math.min(ticket.rank, rank);
    const at = this.waiting.findIndex((w) => w.ticket === ticket);
    if (at >= 0) this.line(this.waiting.splice(at, 1)[0]!);
  }

  /**
   * Leaves a place, handed to the first waiting holder while fewer than `size` are held without it: a
   * size lowered meanwhile (the run's requests in flight, core/http/flight-window.ts) takes effect as
   * holders leave.
   */
  leave(size = Number.POSITIVE_INFINITY): void {
    const next = this.held <= size ? this.waiting.shift() : undefined;
    if (next) next.taken();
    else this.held--;
  }

  /** Hands places to waiting holders until `size` are held: the size grew. */
  widen(size: number): void {
    while (this.held < size) {
      const next = this.waiting.shift();
      if (!next) return;
      this.held++;
      next.taken();
    }
  }

  private line(entry: { ticket: Ticket; taken: () => void }): void {
    // Few wait: what the checks in flight ask at once (their property runs, a gather's walks).
    let at = this.waiting.length;
    while (at > 0 && this.waiting[at - 1]!.ticket.rank > entry.ticket.rank) at--;
    this.waiting.splice(at, 0, entry);
  }
}
