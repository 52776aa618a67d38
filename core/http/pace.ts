import type { Ticket } from '../run/places.ts';
import type { RunSettings } from '../run/run-settings.ts';
import { refuseIfStopped, type RunState } from './run-state.ts';

/**
 * Waits for a request's turn: after the run's pause (a 429/503's), and with --max-rps at least
 * 1000/maxRps ms after the previous request any check sent. The turn is taken when the request
 * leaves, not when it starts waiting: a request whose timer fired late (the event loop busy with
 * another check's work) cannot leave in a bunch with the next one. A pause that begins while a
 * request waits holds it too.
 */
export async function pace(state: RunState, settings: Pick<RunSettings, 'maxRps'>, ticket: Ticket): Promise<void> {
  const interval = settings.maxRps > 0 ? 1000 / settings.maxRps : 0;
  if (interval === 0 && state.pausedUntil <= Date.now()) return;
  // One request waits for the slot at a time, the next chosen by rank like a place in flight: where
  // the pace is what holds the run back, the checks expected to finish first still do.
  await state.pacer.take(1, ticket);
  try {
    await nextSlot(state, interval);
  } finally {
    state.pacer.leave();
  }
}

async function nextSlot(state: RunState, interval: number): Promise<void> {
  for (;;) {
    // A run that stopped meanwhile sends nothing more: the requests lined up behind do not wait their slots out.
    refuseIfStopped(state);
    const now = Date.now();
    const at = Math.max(now, state.pausedUntil, state.lastSent + interval);
    if (at <= now) {
      state.lastSent = now;
      if (interval > 0) state.slots.push(now);
      return;
    }
    await sleep(at - now);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
