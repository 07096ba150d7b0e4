import { Agent, request } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecureServer, type SecureServer } from './secure-server.js';
import { httpsRequest, type Reply } from './testing/client.js';
import { servingConfig } from './testing/config.js';
import { recordingLogger } from './testing/logger.js';

interface Gate {
  readonly promise: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

interface Fixture {
  readonly server: SecureServer;
  readonly port: number;
  /** Opens once a request for that path has reached the handler. */
  readonly arrived: (path: string) => Promise<void>;
  /** Lets every held request finish. */
  readonly release: () => void;
  readonly logger: ReturnType<typeof recordingLogger>;
}

const running: SecureServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(
  extra: { newConnectionGraceMs?: number; isLongRunning?: (req: IncomingMessage) => boolean } = {},
): Promise<Fixture> {
  const arrivals = new Map<string, Gate>();
  const arrival = (path: string): Gate => {
    let g = arrivals.get(path);
    if (!g) arrivals.set(path, (g = gate()));
    return g;
  };
  const held = gate();
  const logger = recordingLogger();
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    if (path === '/slow') {
      arrival(path).open();
      void held.promise.then(() => res.end('slow done'));
    } else if (path === '/head-first') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('head ');
      arrival(path).open();
      void held.promise.then(() => res.end('tail'));
    } else if (path === '/upload') {
      let size = 0;
      arrival(path).open();
      req.on('data', (c: Buffer) => (size += c.length));
      req.on('end', () => res.end(`received ${size}`));
    } else if (path.startsWith('/watch')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      if (path === '/watch') server.trackLongRunning(res);
      if (path === '/watch-custom') server.trackLongRunning(res, () => res.end('{"type":"BYE"}\n'));
      arrival(path).open();
    } else if (path === '/hang') {
      arrival(path).open();
    } else {
      res.end('ok');
    }
  };
  const server = createSecureServer({ config: servingConfig(), handler, logger, ...extra });
  running.push(server);
  const { port } = await server.listen();
  return { server, port, arrived: (p) => arrival(p).promise, release: () => held.open(), logger };
}

function get(port: number, path: string, agent: Agent | false = false): Promise<Reply> {
  return httpsRequest(port, { path, rejectUnauthorized: false, agent });
}

function errorCode(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'no error',
    (err: NodeJS.ErrnoException) => err.code ?? err.message,
  );
}

describe('shutdown without retry-after', () => {
  it('refuses new connections at once and lets an in-flight request complete with Connection: close', async () => {
    const f = await start();
    const slow = get(f.port, '/slow');
    await f.arrived('/slow');
    const done = f.server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
    expect(f.server.draining).toBe(true);
    expect(await errorCode(get(f.port, '/'))).toBe('ECONNREFUSED');
    f.release();
    const reply = await slow;
    expect(reply).toMatchObject({ status: 200, body: 'slow done', headers: { connection: 'close' } });
    expect(await done).toEqual({ forced: false, abandonedRequests: 0 });
  });

  it('completes a request whose body is still being uploaded when draining starts', async () => {
    const f = await start();
    const reply = new Promise<Reply>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: f.port,
          path: '/upload',
          method: 'POST',
          agent: false,
          rejectUnauthorized: false,
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.write('x'.repeat(1000));
      void f.arrived('/upload').then(async () => {
        const done = f.server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
        await new Promise((r) => setTimeout(r, 50));
        req.end('y'.repeat(500));
        await done;
      });
    });
    expect(await reply).toMatchObject({ status: 200, body: 'received 1500' });
  });

  it('closes a keep-alive connection after a response whose headers went out before draining', async () => {
    const f = await start();
    const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });
    const reply = get(f.port, '/head-first', agent);
    await f.arrived('/head-first');
    const done = f.server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
    f.release();
    expect(await reply).toMatchObject({ status: 200, body: 'head tail' });
    const started = Date.now();
    expect(await done).toEqual({ forced: false, abandonedRequests: 0 });
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });

  it('closes idle keep-alive connections instead of waiting for them', async () => {
    const f = await start();
    const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });
    expect((await get(f.port, '/', agent)).status).toBe(200);
    const started = Date.now();
    expect(await f.server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 })).toEqual({
      forced: false,
      abandonedRequests: 0,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });

  it('gives a connection that has not sent its request yet a grace period to send it', async () => {
    const f = await start({ newConnectionGraceMs: 2000 });
    const socket = connect({ host: '127.0.0.1', port: f.port, rejectUnauthorized: false });
    await new Promise((r) => socket.once('secureConnect', r));
    const done = f.server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 100));
    let raw = '';
    socket.on('data', (c: Buffer) => (raw += c.toString()));
    const closed = new Promise((r) => socket.once('close', r));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(raw).toMatch(/\r\nConnection: close\r\n/i);
    expect(await done).toEqual({ forced: false, abandonedRequests: 0 });
  });

  it('closes a connection that sends nothing once its grace is over', async () => {
    const f = await start({ newConnectionGraceMs: 200 });
    const socket = connect({ host: '127.0.0.1', port: f.port, rejectUnauthorized: false });
    await new Promise((r) => socket.once('secureConnect', r));
    const closed = new Promise((r) => socket.once('close', r));
    const started = Date.now();
    expect(await f.server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 })).toEqual({
      forced: false,
      abandonedRequests: 0,
    });
    await closed;
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('shutdown with retry-after', () => {
  it('answers new requests 429 while an in-flight request completes, then closes', async () => {
    const f = await start();
    const slow = get(f.port, '/slow');
    await f.arrived('/slow');
    const done = f.server.shutdown({ sendRetryAfter: true, drainTimeoutMs: 10_000 });

    const rejected = await get(f.port, '/api/v1/pods');
    expect(rejected).toMatchObject({
      status: 429,
      body: 'The apiserver is shutting down, please try again later.\n',
      headers: {
        'retry-after': '5',
        connection: 'close',
        'content-type': 'text/plain; charset=utf-8',
        'x-content-type-options': 'nosniff',
      },
    });
    expect(await get(f.port, '/readyz')).toMatchObject({
      status: 200,
      body: 'ok',
      headers: { connection: 'close' },
    });

    f.release();
    expect(await slow).toMatchObject({ status: 200, body: 'slow done' });
    expect(await done).toEqual({ forced: false, abandonedRequests: 0 });
    expect(await errorCode(get(f.port, '/'))).toBe('ECONNREFUSED');
  });

  it('also answers 429 on a connection that was open before draining', async () => {
    const f = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
    expect((await get(f.port, '/', agent)).status).toBe(200);
    const slow = get(f.port, '/slow');
    await f.arrived('/slow');
    const done = f.server.shutdown({ sendRetryAfter: true, drainTimeoutMs: 10_000 });
    expect((await get(f.port, '/apis', agent)).status).toBe(429);
    f.release();
    await slow;
    await done;
    agent.destroy();
  });
});

describe('long-running requests', () => {
  it.each([
    ['ended by default', '/watch', '{"type":"ADDED"}\n'],
    ['ended by their own stop callback', '/watch-custom', '{"type":"ADDED"}\n{"type":"BYE"}\n'],
  ])('are %s at shutdown, cleanly, instead of being waited for', async (_name, path, body) => {
    const f = await start();
    const watch = get(f.port, path);
    await f.arrived(path);
    const started = Date.now();
    const result = await f.server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
    expect(result).toEqual({ forced: false, abandonedRequests: 0 });
    expect(await watch).toMatchObject({ status: 200, body });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('can be recognised by a predicate; with retry-after they are not awaited before the listener closes', async () => {
    const f = await start({ isLongRunning: (req) => req.url === '/watch-predicate' });
    const watch = get(f.port, '/watch-predicate');
    await f.arrived('/watch-predicate');
    const result = await f.server.shutdown({ sendRetryAfter: true, drainTimeoutMs: 10_000 });
    expect(result).toEqual({ forced: false, abandonedRequests: 0 });
    expect(await watch).toMatchObject({ status: 200, body: '{"type":"ADDED"}\n' });
  });
});

describe('deadline', () => {
  it('cuts what is still running when the drain timeout expires, and says so', async () => {
    const f = await start();
    const hung = errorCode(get(f.port, '/hang'));
    await f.arrived('/hang');
    expect(await f.server.shutdown({ sendRetryAfter: true, drainTimeoutMs: 200 })).toEqual({
      forced: true,
      abandonedRequests: 1,
    });
    expect(await hung).toBe('ECONNRESET');
    expect(f.logger.lines.filter((l) => l.level === 'warning')).toEqual([
      {
        level: 'warning',
        msg: 'Graceful shutdown timed out; open connections were closed',
        kv: { requests: 1 },
      },
    ]);
  });

  it('close() cuts at once without a warning', async () => {
    const f = await start();
    const hung = errorCode(get(f.port, '/hang'));
    await f.arrived('/hang');
    await f.server.close();
    expect(await hung).toBe('ECONNRESET');
    expect(f.logger.lines.filter((l) => l.level === 'warning')).toEqual([]);
  });
});

describe('request classifiers', () => {
  it('a throwing isLongRunning costs the request its classification, never the process', async () => {
    const f = await start({
      isLongRunning: (req) => {
        if (req.url === '/boom') throw new TypeError('Invalid URL');
        return false;
      },
    });
    expect(await get(f.port, '/boom')).toMatchObject({ status: 200, body: 'ok' });
    expect(await get(f.port, '/')).toMatchObject({ status: 200, body: 'ok' });
    expect(f.logger.lines.filter((l) => l.level === 'error')).toEqual([
      {
        level: 'error',
        msg: 'Drainer: isLongRunning failed; treating the request as not matching',
        kv: { err: new TypeError('Invalid URL'), method: 'GET', uri: '/boom' },
      },
    ]);
  });
});
