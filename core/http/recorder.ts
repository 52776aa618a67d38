import { CannotJudge } from '../check/errors.ts';
import { TransportError, type RawResponse, type Transport } from './transport.ts';

/** Body bytes kept for the whole run's recording, and for one body (rule "Hostile input": memory bounded). */
export const RECORDING_BOUNDS = { runBytes: 16 * 1024 * 1024, bodyBytes: 1024 * 1024 } as const;

/** One request sent to the target and what came back, as sent and received (masked when serialised). */
export interface RecordedExchange {
  startedAt: Date;
  ms: number;
  url: string;
  headers: Record<string, string>;
  /** Absent when no answer came (`error` says why). */
  response?: { status: number; headers: Record<string, string>; size: number; body?: Buffer };
  error?: string;
}

/**
 * Which bodies a recording keeps: each at most `bodyBytes`, all together at most `runBytes`; a body past
 * either bound is left out (its entry stays) and the bound is said reached. One budget per recording:
 * a run's (Recorder) and a merged run's, whose shards' bodies are kept again within one run's bounds.
 */
export class BodyBudget {
  private keptBytes = 0;
  /** Whether a body was left out because a bound was reached. */
  reached = false;

  constructor(private readonly bounds: { runBytes: number; bodyBytes: number } = RECORDING_BOUNDS) {}

  keep(size: number): boolean {
    const keep = size <= this.bounds.bodyBytes && this.keptBytes + size <= this.bounds.runBytes;
    if (keep) this.keptBytes += size;
    else this.reached = true;
    return keep;
  }
}

/**
 * Every request of one run (the preflight's included) and its answer, kept whole up to the run's
 * bounds: past them, an answer is kept without its body and the recording says the bound was reached.
 * The report step serialises it as evidence.har (reports/har.ts), masked there.
 */
export class Recorder {
  readonly entries: RecordedExchange[] = [];
  private readonly budget: BodyBudget;

  constructor(bounds: { runBytes: number; bodyBytes: number } = RECORDING_BOUNDS) {
    this.budget = new BodyBudget(bounds);
  }

  /** Whether a body was left out because a bound was reached. */
  get boundReached(): boolean {
    return this.budget.reached;
  }

  /** Records one exchange; returns its entry's index, which is its index in evidence.har (reports/har.ts keeps the order). */
  record(entry: Omit<RecordedExchange, 'response'>, raw?: RawResponse): number {
    if (!raw) return this.entries.push(entry) - 1;
    const size = raw.body.length;
    const keep = this.budget.keep(size);
    return (
      this.entries.push({
        ...entry,
        response: { status: raw.status, headers: { ...raw.headers }, size, ...(keep ? { body: raw.body } : {}) },
      }) - 1
    );
  }
}

/**
 * A transport that keeps every request it sends and every answer in the run's recorder. Each answer
 * (and each request left unanswered, on its TransportError) carries the index of its own entry, so a
 * finding names the exchange it came from: the same URL asked again (`ctx.api.fresh`, a retry) is an
 * entry of its own, with the body that request received.
 */
export function recordingTransport(inner: Transport, recorder: Recorder): Transport {
  return {
    async get(url, headers) {
      const startedAt = new Date();
      const started = performance.now();
      const ms = () => Math.round(performance.now() - started);
      const sent = { startedAt, url: url.toString(), headers: { ...headers } };
      try {
        const raw = await inner.get(url, headers);
        return { ...raw, recordedEntry: recorder.record({ ...sent, ms: ms() }, raw) };
      } catch (e) {
        // A request the suite refused before sending (CannotJudge) was never on the wire.
        if (!(e instanceof CannotJudge)) {
          const at = recorder.record({ ...sent, ms: ms(), error: String((e as Error)?.message ?? e) });
          if (e instanceof TransportError) e.recordedEntry = at;
        }
        throw e;
      }
    },
    close: () => inner.close(),
  };
}
