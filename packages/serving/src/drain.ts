import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerHttp2Session } from 'node:http2';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from '@keel/log';
import { refuseWithRetryAfter, retryAfterExemption } from './retry-after.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ShutdownOptions {
  /** --shutdown-send-retry-after: keep the listener open and answer new requests 429 until in-flight work is done. */
  readonly sendRetryAfter: boolean;
  /** Deadline for the whole drain; connections still open then are cut. */
  readonly drainTimeoutMs: number;
}

export interface ShutdownResult {
  /** True when the deadline struck and open connections were cut. */
  readonly forced: boolean;
  /** Requests that were still running when the deadline struck. */
  readonly abandonedRequests: number;
}

export interface DrainerOptions {
  readonly logger: Logger;
  /** Requests that are not waited for but told to end at shutdown (watches); see also trackLongRunning. */
  readonly isLongRunning?: (req: IncomingMessage) => boolean;
  /** Requests still served while draining with retry-after; default: probes, /metrics, the loopback client. */
  readonly isExemptFromRetryAfter?: (req: IncomingMessage) => boolean;
  /** How long a connection that has not sent a request yet may still send one once the listener closes (Go: 5 s). */
  readonly newConnectionGraceMs?: number;
  /**
   * How long a keep-alive connection that has served requests may stay idle once the listener
   * closes before it is closed (default 500 ms, the longest Go waits between two looks for idle
   * connections). A client that got a keep-alive response is usually sending its next request
   * already: that request is then answered (with `Connection: close`) instead of cut unanswered.
   */
  readonly idleConnectionGraceMs?: number;
}

interface Conn {
  readonly socket: Socket;
  /** Set once the connection negotiated HTTP/2: it is closed with a GOAWAY, never cut. */
  session?: ServerHttp2Session;
  readonly acceptedAt: number;
  active: number;
  served: number;
  /**
   * Set when shutdown closes this connection for good. A request the server still reads from it
   * is not run: its client gets the connection closed without a response, which for a write must
   * mean it did not happen.
   */
  retired: boolean;
  graceTimer?: NodeJS.Timeout;
}

interface Tracked {
  readonly res: ServerResponse;
  /** Kept because `res.socket` is already detached when the response's `close` event fires. */
  readonly socket: Socket;
  readonly conn: Conn | undefined;
  longRunning: boolean;
  stop?: () => void;
  stopped: boolean;
}

type State = 'serving' | 'retry-after' | 'closing';

/**
 * Graceful shutdown for one HTTP(S) server, with kube's semantics. Requests are tracked through
 * {@link Drainer.wrap}; connections through the server's `connection` event.
 *
 * shutdown(): (1) with retry-after, the listener stays open, new requests get 429 (until the end)
 * and in-flight non-long-running requests are awaited; (2) the listener closes, long-running
 * requests are told to end and every further response carries `Connection: close`; an idle
 * keep-alive connection is closed after a short idle grace (a request already on its way is
 * answered, not cut), one that has not sent a request yet after a longer one (Go does the same;
 * Node's own server.close() would cut them at once); a request read from a connection after it was
 * closed never runs; (3) once every connection is gone the server is closed; at the deadline
 * whatever is left is destroyed.
 *
 * An HTTP/2 connection is a session of streams: each stream counts as a request on it, and where
 * HTTP/1.1 gets `Connection: close` or an ended socket, the session gets a GOAWAY (session.close()),
 * which lets its open streams finish and then closes it.
 */
export class Drainer {
  private state: State = 'serving';
  private readonly conns = new Map<string, Conn>();
  private readonly tracked = new Set<Tracked>();
  private readonly byRes = new WeakMap<ServerResponse, Tracked>();
  private readonly isLongRunning: (req: IncomingMessage) => boolean;
  private readonly isExempt: (req: IncomingMessage) => boolean;
  private readonly graceMs: number;
  private readonly idleGraceMs: number;
  /** --shutdown-send-retry-after: from the start of the drain to its end, new requests get 429. */
  private refuseNew = false;
  private waiters: (() => void)[] = [];
  private shutdownResult?: Promise<ShutdownResult>;
  private closingNow = false;

  constructor(
    private readonly server: NetServer,
    private readonly opts: DrainerOptions,
  ) {
    this.isLongRunning = this.guarded('isLongRunning', opts.isLongRunning ?? (() => false));
    this.isExempt = this.guarded(
      'isExemptFromRetryAfter',
      opts.isExemptFromRetryAfter ?? retryAfterExemption(),
    );
    this.graceMs = opts.newConnectionGraceMs ?? 5000;
    this.idleGraceMs = opts.idleConnectionGraceMs ?? 500;
    server.on('connection', (socket: Socket) => this.onConnection(socket));
    server.on('session', (session: ServerHttp2Session) => this.onSession(session));
  }

  /**
   * A classifier runs outside the handler's try, on requests no filter has checked yet (e.g. a
   * target `new URL` refuses): one that throws must cost that request its classification (false),
   * never the process.
   */
  private guarded(name: string, test: (req: IncomingMessage) => boolean): (req: IncomingMessage) => boolean {
    return (req) => {
      try {
        return test(req);
      } catch (err) {
        this.opts.logger.error(`Drainer: ${name} failed; treating the request as not matching`, {
          err,
          method: req.method,
          uri: req.url,
        });
        return false;
      }
    };
  }

  /** True from the moment shutdown() is called. */
  get draining(): boolean {
    return this.state !== 'serving';
  }

  /** The handler to give the server: admission (429 while draining) and request tracking around `inner`. */
  wrap(inner: RequestHandler): RequestHandler {
    return (req, res) => {
      const conn = this.conns.get(connKey(req.socket));
      if (conn?.retired) {
        req.socket.destroy();
        return;
      }
      // Also once the listener has closed, as kube's filter does: a request on a connection
      // still open is refused with an answer, never run.
      if (this.refuseNew && !this.isExempt(req)) {
        refuseWithRetryAfter(req, res);
        return;
      }
      const t: Tracked = {
        res,
        socket: req.socket,
        conn,
        longRunning: this.isLongRunning(req),
        stopped: false,
      };
      this.tracked.add(t);
      this.byRes.set(res, t);
      if (conn) {
        conn.active++;
        clearTimeout(conn.graceTimer);
      }
      if (this.state !== 'serving') res.setHeader('Connection', 'close');
      res.once('close', () => this.finished(t));
      if (t.longRunning && this.state === 'closing') setImmediate(() => this.stop(t));
      try {
        inner(req, res);
      } catch (err) {
        this.opts.logger.error('Request handler failed', { err, method: req.method, uri: req.url });
        if (res.headersSent) res.destroy();
        else res.writeHead(500).end();
      }
    };
  }

  /**
   * Marks an admitted request as long-running (a watch): shutdown does not wait for it but calls
   * `stop` (default: end the response, which closes a chunked stream cleanly) once the listener is closed.
   */
  trackLongRunning(res: ServerResponse, stop?: () => void): void {
    const t = this.byRes.get(res);
    if (!t) return;
    const wasInFlight = !t.longRunning;
    t.longRunning = true;
    if (stop) t.stop = stop;
    if (wasInFlight) this.wakeWaiters();
    if (this.state === 'closing') setImmediate(() => this.stop(t));
  }

  /** Starts (or joins) the graceful shutdown; resolves once the server is closed. */
  shutdown(opts: ShutdownOptions): Promise<ShutdownResult> {
    this.shutdownResult ??= this.drain(opts);
    return this.shutdownResult;
  }

  /** Closes the listener and cuts every connection at once; resolves when the server is closed. */
  async close(): Promise<void> {
    this.closingNow = true;
    await this.shutdown({ sendRetryAfter: false, drainTimeoutMs: 0 });
  }

  private destroyAll(): number {
    const running = this.tracked.size;
    for (const t of this.tracked) t.res.destroy();
    for (const c of this.conns.values()) c.socket.destroy();
    return running;
  }

  private async drain(opts: ShutdownOptions): Promise<ShutdownResult> {
    let forced = false;
    let abandonedRequests = 0;
    let deadlineHit!: () => void;
    const deadline = new Promise<void>((resolve) => (deadlineHit = resolve));
    const timer = setTimeout(
      () => {
        forced = this.conns.size > 0 || this.tracked.size > 0;
        abandonedRequests = this.destroyAll();
        deadlineHit();
      },
      Math.max(0, opts.drainTimeoutMs),
    );
    timer.unref();

    this.state = opts.sendRetryAfter ? 'retry-after' : 'closing';
    this.refuseNew = opts.sendRetryAfter;
    for (const t of this.tracked) if (!t.res.headersSent) t.res.setHeader('Connection', 'close');
    if (opts.sendRetryAfter) await Promise.race([this.inFlightDrained(), deadline]);

    this.state = 'closing';
    // net.Server's close rather than http's: http's also cuts connections that have not sent their
    // first request yet, which would lose requests already on their way.
    const closed = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(this.server, () => resolve()),
    );
    for (const t of this.tracked) this.stop(t);
    for (const c of this.conns.values()) this.closeIfIdle(c);
    await closed;
    clearTimeout(timer);
    // Now that everything is gone, http's close() stops its connection-checking interval.
    this.server.close(() => undefined);
    if (forced && !this.closingNow) {
      this.opts.logger.warning('Graceful shutdown timed out; open connections were closed', {
        requests: abandonedRequests,
      });
    }
    return { forced, abandonedRequests };
  }

  private onConnection(socket: Socket): void {
    // A socket reset before this event has no address any more; there is nothing left to drain.
    if (socket.remoteAddress === undefined) return;
    const key = connKey(socket);
    const conn: Conn = { socket, acceptedAt: Date.now(), active: 0, served: 0, retired: false };
    this.conns.set(key, conn);
    socket.once('close', () => {
      clearTimeout(conn.graceTimer);
      this.conns.delete(key);
    });
    if (this.state === 'closing') this.closeIfIdle(conn);
  }

  private onSession(session: ServerHttp2Session): void {
    const socket = session.socket;
    const conn = socket.remoteAddress === undefined ? undefined : this.conns.get(connKey(socket));
    if (!conn) return;
    conn.session = session;
    if (this.state === 'closing') this.closeIfIdle(conn);
  }

  private finished(t: Tracked): void {
    this.tracked.delete(t);
    const conn = t.conn;
    if (conn) {
      conn.active--;
      conn.served++;
      // A response that went out before draining began did not say `Connection: close`, so its
      // client may already be sending the next request on this connection: give it the idle grace
      // to arrive and be answered rather than half-close under it (a request read after that
      // would run with no way left to answer it).
      if (this.state === 'closing' && conn.active === 0) this.closeIfIdle(conn);
    }
    if (!t.longRunning) this.wakeWaiters();
  }

  /**
   * Closes an idle connection once its grace is over: a connection that served requests gets the
   * idle grace from now, one that has not sent a request yet the new-connection grace from its accept.
   */
  private closeIfIdle(conn: Conn): void {
    // A session that has served streams gets its GOAWAY now: those still open finish first.
    if (conn.session && conn.active + conn.served > 0) {
      closeSession(conn.session);
      return;
    }
    if (conn.active > 0) return;
    const left = conn.served > 0 ? this.idleGraceMs : conn.acceptedAt + this.graceMs - Date.now();
    clearTimeout(conn.graceTimer);
    conn.graceTimer = setTimeout(
      () => {
        if (conn.active > 0) return;
        if (conn.session) closeSession(conn.session);
        else {
          conn.retired = true;
          conn.socket.destroy();
        }
      },
      Math.max(0, left),
    );
    conn.graceTimer.unref();
  }

  private stop(t: Tracked): void {
    if (!t.longRunning || t.stopped) return;
    t.stopped = true;
    try {
      if (t.stop) t.stop();
      else t.res.end();
    } catch (err) {
      this.opts.logger.error('Stopping a long-running request failed', { err });
      t.res.destroy();
    }
  }

  private inFlightDrained(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.wakeWaiters();
    });
  }

  private wakeWaiters(): void {
    for (const t of this.tracked) if (!t.longRunning) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function closeSession(session: ServerHttp2Session): void {
  if (!session.closed && !session.destroyed) session.close();
}

// The raw TCP socket and the TLS socket on top of it report the same peer, which links the two.
function connKey(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
