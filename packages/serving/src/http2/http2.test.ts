import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer as createHttp2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { connect, TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { discardLogger } from '@keel/log';
import { createSecureServer, type SecureServer, type SecureServerOptions } from '../secure-server.js';
import { peerIdentity } from '../tls/peer-identity.js';
import { h2Connect, h2Request, httpsRequest } from '../testing/client.js';
import { configFromFlags, servingConfig } from '../testing/config.js';
import { testCA, testLeaf } from '../testing/pki.js';
import { http1Classes } from './express-bridge.js';
import { DEFAULT_MAX_CONCURRENT_STREAMS, manageSession } from './settings.js';

const running: SecureServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function make(opts: Partial<SecureServerOptions> = {}): SecureServer {
  const server = createSecureServer({
    config: servingConfig(),
    handler: (req, res) => res.end(`HTTP/${req.httpVersion}`),
    logger: discardLogger,
    ...opts,
  });
  running.push(server);
  return server;
}

function alpn(port: number, protocols: string[]): Promise<string | false> {
  return new Promise((resolve, reject) => {
    const s = connect(
      { host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: protocols },
      () => {
        resolve(s.alpnProtocol ?? false);
        s.end();
      },
    );
    s.on('error', reject);
  });
}

describe('HTTP/2 on the secure port', () => {
  it('prefers h2 in ALPN and falls back to HTTP/1.1 for clients without it', async () => {
    const { port } = await make().listen();
    // The server's order decides, as in Go: a client offering both in either order gets h2.
    expect(await alpn(port, ['http/1.1', 'h2'])).toBe('h2');
    expect(await alpn(port, ['http/1.1'])).toBe('http/1.1');
    expect((await httpsRequest(port, { rejectUnauthorized: false })).body).toBe('HTTP/1.1');
    const session = await h2Connect(port);
    expect(session.alpnProtocol).toBe('h2');
    expect((await h2Request(session)).body).toBe('HTTP/2.0');
    session.close();
  });

  it('makes HTTP/1.1 requests and responses with the http1 classes, HTTP/2 ones with its own', async () => {
    // An app's prototypes as Express builds them: helpers on top of Node's classes.
    const { IncomingMessage, ServerResponse } = await import('node:http');
    const app = {
      request: Object.create(IncomingMessage.prototype, { helper: { value: 'req' } }) as object,
      response: Object.create(ServerResponse.prototype, { helper: { value: 'res' } }) as object,
    };
    const { port } = await make({
      http1: http1Classes(app),
      handler: (req, res) => {
        const own = (o: object) => (o as { helper?: string }).helper ?? 'none';
        res.end(`${own(req)} ${own(res)} ${String(req.headers['x-test'] ?? '')}`);
      },
    }).listen();
    const h1 = await httpsRequest(port, { rejectUnauthorized: false, headers: { 'x-test': 'a' } });
    expect(h1.body).toBe('req res a');
    const session = await h2Connect(port);
    expect((await h2Request(session)).body).toBe('none none ');
    session.close();
  });

  it('announces --http2-max-streams-per-connection as SETTINGS_MAX_CONCURRENT_STREAMS, 250 for 0', async () => {
    const limited = make({ config: configFromFlags(['--http2-max-streams-per-connection=7']) });
    const a = await h2Connect((await limited.listen()).port);
    expect(a.remoteSettings.maxConcurrentStreams).toBe(7);
    a.close();
    const plain = make({ config: configFromFlags([]) });
    const b = await h2Connect((await plain.listen()).port);
    expect(b.remoteSettings.maxConcurrentStreams).toBe(DEFAULT_MAX_CONCURRENT_STREAMS);
    b.close();
  });

  it('holds streams beyond the limit until one ends: every request is answered', async () => {
    const held: ServerResponse[] = [];
    const server = make({
      config: configFromFlags(['--http2-max-streams-per-connection=2']),
      handler: (_req, res) => held.push(res),
    });
    const session = await h2Connect((await server.listen()).port);
    const holds = [1, 2, 3].map((n) => h2Request(session, { ':path': '/hold', 'x-n': String(n) }));
    await waitFor(() => held.length === 2);
    // The third stream waits on the client until one of the two ends.
    await new Promise((r) => setTimeout(r, 100));
    expect(held.length).toBe(2);
    held[0]?.end('released');
    await waitFor(() => held.length === 3);
    held.slice(1).forEach((r) => r.end('released'));
    expect((await Promise.all(holds)).map((r) => r.body)).toEqual(['released', 'released', 'released']);
    session.close();
  });

  it('turns Connection: close into a GOAWAY after the response and drops connection-specific fields', async () => {
    const server = make({
      handler: (req, res) => {
        res.setHeader('Connection', 'close');
        res.writeHead(200, 'Fine', {
          'Transfer-Encoding': 'chunked',
          'Keep-Alive': 'timeout=5',
          'X-Kept': 'yes',
        });
        res.end(`HTTP/${req.httpVersion}`);
      },
    });
    const { port } = await server.listen();
    const session = await h2Connect(port);
    const goaway = new Promise<number>((resolve) => session.once('goaway', (code: number) => resolve(code)));
    const reply = await h2Request(session);
    expect(reply).toMatchObject({ status: 200, body: 'HTTP/2.0' });
    expect(reply.headers['x-kept']).toBe('yes');
    expect(reply.headers.connection).toBeUndefined();
    expect(reply.headers['transfer-encoding']).toBeUndefined();
    expect(await goaway).toBe(0);
    await new Promise((r) => session.once('close', r));
    // HTTP/1.1 still gets the header itself.
    const h1 = await httpsRequest(port, { rejectUnauthorized: false });
    expect(h1.headers.connection).toBe('close');
    expect(h1.body).toBe('HTTP/1.1');
  });

  it('gives handlers the TLS socket: peer address and client certificate as on HTTP/1.1', async () => {
    const clientCA = await testCA('client-ca');
    const client = await testLeaf(clientCA, { commonName: 'bob', organizations: ['ops'], usage: 'client' });
    const server = make({
      clientCA: clientCA.certPem,
      handler: (req: IncomingMessage, res) =>
        res.end(
          JSON.stringify({
            tls: req.socket instanceof TLSSocket,
            remote: req.socket.remoteAddress,
            peer: peerIdentity(req.socket),
          }),
        ),
    });
    const session = await h2Connect((await server.listen()).port, {
      cert: client.certPem,
      key: client.keyPem,
    });
    const body = JSON.parse((await h2Request(session)).body) as Record<string, unknown>;
    expect(body).toMatchObject({ tls: true, remote: '127.0.0.1', peer: { user: 'bob', groups: ['ops'] } });
    session.close();
  });

  it('drains: in-flight streams finish, long-running ones are ended, the session gets a GOAWAY', async () => {
    let slow: ServerResponse | undefined;
    const server: SecureServer = make({
      isLongRunning: (req) => req.url === '/watch',
      handler: (req, res) => {
        if (req.url === '/watch') {
          res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
          res.write('{"type":"ADDED"}\n');
        } else if (req.url === '/slow') slow = res;
        else res.end('ok');
      },
    });
    const session = await h2Connect((await server.listen()).port);
    const watches = Array.from({ length: 3 }, () => h2Request(session, { ':path': '/watch' }));
    const inFlight = h2Request(session, { ':path': '/slow' });
    await waitFor(() => slow !== undefined);
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()));
    const done = server.shutdown({ sendRetryAfter: false, drainTimeoutMs: 10_000 });
    expect((await Promise.all(watches)).map((w) => w.body)).toEqual(Array(3).fill('{"type":"ADDED"}\n'));
    await goaway;
    slow?.end('finished');
    expect((await inFlight).body).toBe('finished');
    expect(await done).toEqual({ forced: false, abandonedRequests: 0 });
  });

  it('answers 429 with Retry-After while draining with --shutdown-send-retry-after, then GOAWAY', async () => {
    let slow: ServerResponse | undefined;
    const server = make({
      handler: (req, res) => {
        if (req.url === '/slow') slow = res;
        else res.end('ok');
      },
    });
    const { port } = await server.listen();
    const busy = await h2Connect(port);
    const inFlight = h2Request(busy, { ':path': '/slow' });
    await waitFor(() => slow !== undefined);
    const done = server.shutdown({ sendRetryAfter: true, drainTimeoutMs: 10_000 });
    const other = await h2Connect(port);
    const refused = await h2Request(other, { ':path': '/api' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBeUndefined();
    await new Promise((r) => other.once('close', r));
    slow?.end('finished');
    expect((await inFlight).body).toBe('finished');
    expect((await done).forced).toBe(false);
  });
});

describe('manageSession', () => {
  it('sends a GOAWAY once a session has had no stream for the idle timeout, never while one is open', async () => {
    const leaf = await testLeaf(await testCA(), { commonName: 'localhost', hosts: ['127.0.0.1'] });
    const server = createHttp2SecureServer({ cert: leaf.certPem, key: leaf.keyPem });
    let streamRes: ServerResponse | undefined;
    server.on('session', (s) => manageSession(s, 10, 150));
    server.on('request', (_req, res) => (streamRes = res as unknown as ServerResponse));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const session = await h2Connect((server.address() as AddressInfo).port);
      let goaway = false;
      session.once('goaway', () => (goaway = true));
      const watch = h2Request(session, { ':path': '/watch' });
      await waitFor(() => streamRes !== undefined);
      await new Promise((r) => setTimeout(r, 400));
      expect(goaway).toBe(false);
      streamRes?.end('done');
      expect((await watch).body).toBe('done');
      await waitFor(() => goaway);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

async function waitFor(test: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!test()) throw new Error('condition not reached');
}
