import { request } from 'node:https';
import { ADMIN_TOKEN, type TestApiServer } from './api-server.js';

// A watch read line by line, for fault tests that need to know how a watch ended: closed by the
// server, broken off, or with an ERROR event. Events are kept in order.

export interface WatchReaderEvent {
  readonly type: string;
  readonly object: {
    readonly metadata?: { readonly name?: string; readonly resourceVersion?: string };
    readonly code?: number;
    readonly reason?: string;
  };
}

export class WatchReader {
  readonly events: WatchReaderEvent[] = [];
  /** Lines that were not one JSON event. */
  readonly badLines: string[] = [];
  /** How the stream ended, once it has: 'end' (server closed it) or 'error' (broken off). */
  ended: 'end' | 'error' | undefined;
  private buffer = '';
  private waiters: (() => void)[] = [];
  private stop: () => void = () => undefined;

  private constructor(
    readonly status: number,
    /** The body of a refused watch (e.g. the 410 Status). */
    public body: string,
  ) {}

  /** Opens `path` (which should ask for watch=true); resolves once the headers arrived. */
  static open(server: TestApiServer, path: string, token = ADMIN_TOKEN): Promise<WatchReader> {
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(server.url + path),
        { method: 'GET', ca: server.ca, headers: { authorization: `Bearer ${token}` } },
        (res) => {
          const reader = new WatchReader(res.statusCode ?? 0, '');
          reader.stop = () => req.destroy();
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => reader.push(chunk, res.statusCode === 200));
          res.on('end', () => reader.finish('end'));
          res.on('error', () => reader.finish('error'));
          res.on('close', () => reader.finish(res.complete ? 'end' : 'error'));
          resolve(reader);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  private push(chunk: string, streaming: boolean): void {
    if (!streaming) {
      this.body += chunk;
      return;
    }
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (line === '') continue;
      try {
        const ev = JSON.parse(line) as WatchReaderEvent;
        if (typeof ev.type === 'string' && typeof ev.object === 'object') this.events.push(ev);
        else this.badLines.push(line);
      } catch {
        this.badLines.push(line);
      }
    }
    this.wake();
  }

  private finish(how: 'end' | 'error'): void {
    this.ended ??= how;
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Closes the watch from the client's side. */
  close(): void {
    this.stop();
  }

  /** Waits until `done()` holds or the stream ended; false when time ran out first. */
  async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done() && this.ended === undefined) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return done();
  }
}
