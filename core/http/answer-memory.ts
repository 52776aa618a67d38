import type { SeenResponse } from '../check/judge.ts';
import type { Ticket } from '../run/places.ts';
import type { ApiResponse } from './api-response.ts';

/** A response kept by the run to answer the same request again. */
export interface Answer {
  response: ApiResponse;
  seen: SeenResponse;
  chars: number;
}

/**
 * Bounds of the run's memory of answers (rule "Hostile input"): a body over a mebi-character is asked again
 * rather than kept, and past 64 Mi characters in all nothing more is kept.
 */
const ANSWER_MAX_CHARS = 1024 * 1024;
const ANSWERS_MAX_CHARS = 64 * 1024 * 1024;

/**
 * The answers a run already received, by request (method, URL, Authorization), each held as a promise
 * so that checks asking the same thing at once wait for one request. A GET is safe and idempotent
 * (RFC 9110 9.2.1-9.2.2): the same request, the same answer, one request to the target. A request
 * that got no usable answer is not kept, and whoever asks next sends it again.
 */
export class AnswerMemory {
  /** With the ticket it waits for a place in flight on, which a check served before its sender raises. */
  private readonly answers = new Map<string, { answer: Promise<Answer | undefined>; ticket: Ticket }>();
  private chars = 0;

  /** The request of `key` already sent or being sent, if any: read and started with no wait between. */
  known(key: string): { answer: Promise<Answer | undefined>; ticket: Ticket } | undefined {
    return this.answers.get(key);
  }

  /**
   * The request of `key` is being sent on `ticket`: those who ask it meanwhile wait for `settle`, which
   * keeps the answer when it is within the bounds (and says so), or forgets the request.
   */
  sending(key: string, ticket: Ticket): (answer: Answer | undefined) => boolean {
    let resolve!: (a: Answer | undefined) => void;
    this.answers.set(key, { answer: new Promise<Answer | undefined>((r) => (resolve = r)), ticket });
    return (answer) => {
      const kept =
        answer !== undefined && answer.chars <= ANSWER_MAX_CHARS && this.chars + answer.chars <= ANSWERS_MAX_CHARS;
      if (kept) this.chars += answer.chars;
      else this.answers.delete(key);
      resolve(kept ? answer : undefined);
      return kept;
    };
  }
}
