/**
 * Records what a reference server receives, with a timestamp and the Authorization header, without
 * touching the reference: Node publishes every incoming request on the `http.server.request.start`
 * diagnostics channel. The reference's own `received` log holds method and URL only; the bench needs
 * the header too (the floor replays it) and the time of each request (the phase breakdown).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

export interface CapturedRequest {
  /** performance.now() of the bench process when the request arrived. */
  t: number;
  method: string;
  /** Path and query, exactly as sent (req.url). */
  url: string;
  authorization?: string;
}

const CHANNEL = 'http.server.request.start';

export class RequestCapture {
  readonly requests: CapturedRequest[] = [];
  private readonly listener = (message: unknown): void => {
    const request = (message as { request?: IncomingMessage }).request;
    if (!request || request.socket.localPort !== this.port) return;
    const authorization = request.headers.authorization;
    this.requests.push({ t: performance.now(), method: request.method ?? '', url: request.url ?? '', ...(authorization !== undefined ? { authorization } : {}) });
  };

  /** Captures the requests that reach the server listening on `port` (its base URL names it). */
  constructor(private readonly port: number) {
    subscribe(CHANNEL, this.listener);
  }

  static forBaseUrl(baseUrl: string): RequestCapture {
    return new RequestCapture(Number(new URL(baseUrl).port));
  }

  stop(): void {
    unsubscribe(CHANNEL, this.listener);
  }
}
