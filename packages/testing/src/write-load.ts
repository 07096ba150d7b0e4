import { spawn } from 'node:child_process';
import { Agent, request } from 'node:https';
import { ADMIN_TOKEN } from './api-server.js';

/** How one write of a load run ended, as its client saw it. */
export type WriteOutcome =
  /** A response with this status (201, 429, 503 ...). */
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly connectionClose: boolean;
      readonly retryAfter?: string;
    }
  /** The connection was refused: nothing reached the server. */
  | { readonly kind: 'refused'; readonly code: string }
  /** The connection broke (reset, EPIPE, closed) before a response: the client cannot tell whether the write happened. */
  | { readonly kind: 'broken'; readonly code: string };

export interface WriteRecord {
  readonly name: string;
  /** Date.now() when the request was sent and when its outcome was known. */
  readonly sentAt: number;
  readonly doneAt: number;
  readonly outcome: WriteOutcome;
}

export interface WriteLoadOptions {
  /** The server's base URL (https://127.0.0.1:port) and the CA that signs its certificate. */
  readonly url: string;
  readonly ca: string;
  /** The collection URL the objects are POSTed to, e.g. /api/v1/namespaces/default/configmaps. */
  readonly collection: string;
  /** Builds the body for one object name. */
  readonly body: (name: string) => unknown;
  /** Concurrent writers, each on its own keep-alive connection. @default 32 */
  readonly concurrency?: number;
  /** Name prefix; names are `<prefix>-<writer>-<n>`. */
  readonly prefix: string;
  readonly token?: string;
}

/**
 * Creates objects as fast as `concurrency` writers can over keep-alive connections until stop()
 * is called or every writer has seen its connection refused (the server is gone), and records
 * each write's outcome: the numbers a fault test asserts on.
 */
export class WriteLoad {
  readonly records: WriteRecord[] = [];
  private stopped = false;
  private readonly agent: Agent;
  private readonly done: Promise<void>;

  constructor(private readonly opts: WriteLoadOptions) {
    const concurrency = opts.concurrency ?? 32;
    // One request per connection at a time, connections kept open between requests (as
    // client-go's transport does), so a write often arrives on a connection that already served one.
    // node:https rather than undici: undici threw an uncaught ECONNRESET now and then when the
    // server went away under it.
    this.agent = new Agent({ ca: opts.ca, keepAlive: true, maxSockets: concurrency });
    this.done = Promise.all(Array.from({ length: concurrency }, (_, i) => this.writer(i))).then(
      () => undefined,
    );
  }

  /** Resolves once at least `n` writes have been answered 201. */
  async untilCreated(n: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.count((r) => r.outcome.kind === 'status' && r.outcome.status === 201) < n) {
      if (Date.now() > deadline)
        throw new Error(`fewer than ${n} writes succeeded: ${JSON.stringify(this.summary())}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Stops the writers; resolves once every writer has finished its last request. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
    this.agent.destroy();
  }

  /** Resolves once every writer has stopped by itself (its connections refused) or `stop()` was called. */
  finished(): Promise<void> {
    return this.done;
  }

  count(pred: (r: WriteRecord) => boolean): number {
    return this.records.reduce((n, r) => (pred(r) ? n + 1 : n), 0);
  }

  /** Outcome counts by kind: `201`, `429`, `refused:ECONNREFUSED`, `broken:UND_ERR_SOCKET` ... */
  summary(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.records) {
      const o = r.outcome;
      const key = o.kind === 'status' ? String(o.status) : `${o.kind}:${o.code}`;
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }

  private async writer(index: number): Promise<void> {
    for (let n = 0; !this.stopped; n++) {
      const name = `${this.opts.prefix}-${index}-${n}`;
      const sentAt = Date.now();
      const outcome = await this.write(name);
      this.records.push({ name, sentAt, doneAt: Date.now(), outcome });
      // The server is gone once it refuses connections: this writer is done.
      if (outcome.kind === 'refused') return;
      // A refusal asks the client to come back later; a real client backs off a little.
      if (outcome.kind !== 'status' || outcome.status !== 201) await new Promise((r) => setTimeout(r, 20));
    }
  }

  private write(name: string): Promise<WriteOutcome> {
    const body = JSON.stringify(this.opts.body(name));
    return new Promise((resolve) => {
      const req = request(this.opts.url + this.opts.collection, {
        method: 'POST',
        agent: this.agent,
        headers: {
          authorization: `Bearer ${this.opts.token ?? ADMIN_TOKEN}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          // The audit log then names the object a write created, even when no response came back.
          'audit-id': name,
        },
      });
      const broken = (err: unknown) => {
        const code = errorCode(err);
        resolve(code === 'ECONNREFUSED' ? { kind: 'refused', code } : { kind: 'broken', code });
      };
      req.on('error', broken);
      req.on('response', (res) => {
        res.on('error', broken);
        res.resume();
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({
            kind: 'status',
            status: res.statusCode ?? 0,
            connectionClose: String(res.headers['connection'] ?? '').toLowerCase() === 'close',
            ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
          });
        });
      });
      req.end(body);
    });
  }
}

/** The innermost error code (a wrapped socket error carries the system error as `cause`). */
function errorCode(err: unknown): string {
  let e: unknown = err;
  let code = 'UNKNOWN';
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') code = c;
    e = (e as { cause?: unknown }).cause;
  }
  return code;
}

/** A request whose body is held back until finish(): in flight on the server for as long as a test needs. */
export interface HeldRequest {
  /** Sends the rest of the body; resolves with the response once the server closes the connection. */
  finish(): Promise<HeldResponse>;
}

export interface HeldResponse {
  readonly status: number;
  /** Header names lower-cased. */
  readonly headers: Record<string, string>;
  readonly text: string;
}

/**
 * POSTs the first half of `body` on a connection of its own and holds the rest back (an in-flight
 * request). Raw HTTP/1.1 over TLS, in a child process: a TLS socket the server resets after
 * answering has been seen to throw an uncaught ECONNRESET in the process that owns it.
 */
export async function holdRequest(opts: {
  readonly url: string;
  readonly ca: string;
  readonly path: string;
  readonly body: unknown;
  readonly token?: string;
  readonly headers?: Record<string, string>;
}): Promise<HeldRequest> {
  const text = JSON.stringify(opts.body);
  const { hostname, port } = new URL(opts.url);
  const head = [
    `POST ${opts.path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    `Authorization: Bearer ${opts.token ?? ADMIN_TOKEN}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    ...Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  const split = Math.floor(text.length / 2);
  const job = {
    host: hostname,
    port: Number(port),
    ca: opts.ca,
    first: head + text.slice(0, split),
    rest: text.slice(split),
  };
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out += d));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.stdin.write(JSON.stringify(job) + '\n');
  // The request is in flight once its headers and half its body are on the wire.
  const deadline = Date.now() + 20_000;
  while (!out.includes('SENT\n')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`holding a request failed: ${out}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    async finish() {
      child.stdin.end('GO\n');
      await exited;
      const result = out.slice(out.indexOf('SENT\n') + 5);
      const parsed = result.startsWith('RESPONSE ')
        ? parseResponse(JSON.parse(result.slice(9)) as string)
        : undefined;
      if (!parsed) throw new Error(`no response to the held request: ${result}`);
      return parsed;
    },
  };
}

/** The child's side of holdRequest: connect, send the first part, wait for GO, send the rest, print what came back. */
const HOLDER = `
import { connect } from 'node:tls';
let input = '';
process.stdin.setEncoding('utf8');
const job = await new Promise((resolve) => process.stdin.on('data', (d) => {
  input += d;
  const nl = input.indexOf('\\n');
  if (nl >= 0) resolve(JSON.parse(input.slice(0, nl)));
}));
let received = '';
const socket = connect({ host: job.host, port: job.port, ca: job.ca });
socket.setEncoding('utf8');
socket.on('data', (d) => (received += d));
const closed = new Promise((resolve) => { socket.on('close', resolve); socket.on('error', () => undefined); });
await new Promise((resolve, reject) => { socket.once('secureConnect', resolve); socket.once('error', reject); });
await new Promise((resolve) => socket.write(job.first, resolve));
process.stdout.write('SENT\\n');
await new Promise((resolve) => { if (input.includes('GO')) resolve(); else process.stdin.on('data', () => input.includes('GO') && resolve()); process.stdin.on('end', resolve); });
socket.write(job.rest);
await closed;
process.stdout.write('RESPONSE ' + JSON.stringify(received));
`;

/** Status, headers and body of a Connection: close response (Content-Length or read to the end). */
function parseResponse(raw: string): HeldResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, text: raw.slice(end + 4) };
}
