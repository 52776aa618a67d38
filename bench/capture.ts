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
  /** `http://127.0.0.1:PORT` of the listener that received it (the reference has a regional one too). */
  origin: string;
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
    const port = request?.socket.localPort;
    if (!request || port === undefined || !this.ports.includes(port)) return;
    const authorization = request.headers.authorization;
    this.requests.push({ t: performance.now(), origin: `http://127.0.0.1:${port}`, method: request.method ?? '', url: request.url ?? '', ...(authorization !== undefined ? { authorization } : {}) });
  };

  /** Captures the requests that reach the servers listening on `ports` (their base URLs name them). */
  constructor(private readonly ports: readonly number[]) {
    subscribe(CHANNEL, this.listener);
  }

  /** The listeners a target file names: its base URL and, when it has one, the regional base URL. */
  static forBaseUrls(baseUrls: readonly string[]): RequestCapture {
    return new RequestCapture(baseUrls.map((u) => Number(new URL(u).port)));
  }

  stop(): void {
    unsubscribe(CHANNEL, this.listener);
  }
}
