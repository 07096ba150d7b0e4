/**
 * A watch response read line by line over HTTPS, the way client-node and the Python client read
 * it: every line must be one complete JSON event.
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import type { TestApiServer } from '@keel/testing';
import { ADMIN_TOKEN } from '@keel/testing';

export interface WatchEvent {
  readonly type: string;
  readonly object: Record<string, unknown>;
}

/** Fails a wait instead of hanging the suite; tests never depend on how fast events come. */
const WAIT_MS = 20_000;

export class WatchStream {
  /** Every event received so far, in order. */
  readonly events: WatchEvent[] = [];
  /** Lines that were not a JSON object with `type` and `object`. */
  readonly badLines: string[] = [];
  private cursor = 0;
  private buffer = '';
  private ended = false;
  private wake: (() => void) | undefined;
  readonly done: Promise<void>;

  private constructor(
    readonly status: number,
    readonly headers: IncomingMessage['headers'],
    private readonly res: IncomingMessage,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.push(chunk));
    this.done = new Promise((resolve) => {
      const finish = () => {
        this.ended = true;
        this.notify();
        resolve();
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
  }

  /** GETs `path` (which should include `watch=true`) and resolves once the headers arrived. */
  static open(server: TestApiServer, path: string, token: string = ADMIN_TOKEN): Promise<WatchStream> {
    const url = new URL(server.url + path);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        { method: 'GET', ca: server.ca, headers: { authorization: `Bearer ${token}` } },
        (res) => resolve(new WatchStream(res.statusCode ?? 0, res.headers, res)),
      );
      req.on('error', reject);
      req.end();
    });
  }

  private push(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (line === '') continue;
      try {
        const ev = JSON.parse(line) as WatchEvent;
        if (typeof ev.type === 'string' && typeof ev.object === 'object') this.events.push(ev);
        else this.badLines.push(line);
      } catch {
        this.badLines.push(line);
      }
    }
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private async waitForChange(deadline: number): Promise<void> {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`watch: timed out; events so far: ${JSON.stringify(this.types())}`);
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, left);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  /** The next unread event; fails when the stream ends first. */
  async next(): Promise<WatchEvent> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const ev = this.events[this.cursor];
      if (ev) {
        this.cursor++;
        return ev;
      }
      if (this.ended) throw new Error(`watch ended; events: ${JSON.stringify(this.types())}`);
      await this.waitForChange(deadline);
    }
  }

  /** Reads the next `n` events. */
  async take(n: number): Promise<WatchEvent[]> {
    const out: WatchEvent[] = [];
    for (let i = 0; i < n; i++) out.push(await this.next());
    return out;
  }

  /** Skips ahead to the first unread event that matches; earlier ones are consumed. */
  async until(match: (ev: WatchEvent) => boolean): Promise<WatchEvent> {
    for (;;) {
      const ev = await this.next();
      if (match(ev)) return ev;
    }
  }

  /** Waits for the server to end the stream; returns the events not read yet. */
  async end(): Promise<WatchEvent[]> {
    const deadline = Date.now() + WAIT_MS;
    while (!this.ended) await this.waitForChange(deadline);
    const rest = this.events.slice(this.cursor);
    this.cursor = this.events.length;
    return rest;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** `TYPE name` of every event so far, for assertions and messages. */
  types(): string[] {
    return this.events.map((e) => {
      const meta = e.object['metadata'] as { name?: string } | undefined;
      return `${e.type} ${meta?.name ?? ''}`.trim();
    });
  }

  close(): void {
    this.res.destroy();
  }
}
