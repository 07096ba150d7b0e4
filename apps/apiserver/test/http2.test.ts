import { execFile } from 'node:child_process';
import type { IncomingHttpHeaders } from 'node:http';
import type { ClientHttp2Session } from 'node:http2';
import { gunzipSync } from 'node:zlib';
import {
  ADMIN_TOKEN,
  http2Request,
  http2Session,
  http2Watch,
  TestApiServer,
  type Http2Reply,
} from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, eventBody } from './support/fixtures.js';
import { rawRequest } from './support/http.js';
import { exited, signal } from './support/lifecycle.js';
import { clientConfig, writeManifest } from './support/clients/kubeconfig.js';
import { KUBECTL, KubectlStream, kubectlOk } from './support/clients/kubectl.js';

// HTTP/2 on the API server's secure port: the same answers as HTTP/1.1, watches multiplexed over
// one connection, --http2-max-streams-per-connection in SETTINGS, --goaway-chance as GOAWAY
// frames, and a drain that ends open watches cleanly.

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Fields that differ between two otherwise equal answers given at different moments. */
function stable(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) =>
    ['resourceVersion', 'uid', 'creationTimestamp', 'time', 'name'].includes(key) ? '-' : value,
  );
}

describe('HTTP/2', () => {
  let server: TestApiServer;
  let session: ClientHttp2Session;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--http2-max-streams-per-connection=40'] });
    await server.ready();
    session = await http2Session(server.url, server.ca);
  });
  afterAll(async () => {
    session?.close();
    await server?.stop();
  });

  it('negotiates h2 and announces --http2-max-streams-per-connection', () => {
    expect(session.alpnProtocol).toBe('h2');
    expect(session.remoteSettings.maxConcurrentStreams).toBe(40);
  });

  it('answers a create, a list, a 404 and a 401 as HTTP/1.1 does', async () => {
    const post = (name: string) => JSON.stringify(eventBody(name));
    const h2Create = await http2Request(
      session,
      EVENTS,
      { ':method': 'POST', 'content-type': 'application/json', ...auth },
      post('over-h2'),
    );
    const h1Create = await server.request('POST', EVENTS, { body: eventBody('over-h1') });
    expect(h2Create.status).toBe(201);
    expect(h1Create.status).toBe(201);
    expect(stable(h2Create.text)).toEqual(stable(h1Create.text));

    const same = async (path: string, h2: Http2Reply, token: string | null = ADMIN_TOKEN) => {
      const h1 = await rawRequest(server, path, { token });
      expect({ status: h2.status, type: h2.headers['content-type'] }).toEqual({
        status: h1.status,
        type: h1.headers['content-type'],
      });
      return { h1: h1.text, h2: h2.text };
    };
    const list = await same(EVENTS, await http2Request(session, EVENTS, auth));
    expect(stable(list.h2)).toEqual(stable(list.h1));
    expect((JSON.parse(list.h2) as { items: unknown[] }).items.length).toBeGreaterThanOrEqual(2);
    const missing = await same(`${EVENTS}/nope`, await http2Request(session, `${EVENTS}/nope`, auth));
    expect(missing.h2).toBe(missing.h1);
    expect(JSON.parse(missing.h2)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    // A session of its own: UnauthenticatedHTTP2DOSMitigation ends it after the 401.
    const once = await http2Session(server.url, server.ca);
    const denied = await same(
      EVENTS,
      await http2Request(once, EVENTS, { authorization: 'Bearer wrong' }),
      'wrong',
    );
    once.close();
    expect(denied.h2).toBe(denied.h1);
    expect(JSON.parse(denied.h2)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('multiplexes 20 watches over one session, and every one gets the event', async () => {
    const watches = Array.from({ length: 20 }, () =>
      http2Watch(session, `${EVENTS}?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dmux`, auth),
    );
    expect(await Promise.all(watches.map((w) => w.status))).toEqual(Array(20).fill(200));
    expect((await server.request('POST', EVENTS, { body: eventBody('mux') })).status).toBe(201);
    await until(() => watches.every((w) => w.events.length >= 1));
    for (const w of watches) {
      expect(w.events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'mux' } } });
      w.stream.close();
    }
    // A stream the client cancels ends the watch on the server as a closed connection does.
    await untilAsync(async () => (await watchesRunning(server)) === 0);
  });

  it('refuses a body over 3 MiB with the 413 Status HTTP/1.1 gets', async () => {
    const big = JSON.stringify({ ...eventBody('big'), note: 'x'.repeat(3 * 1024 * 1024) });
    const headers = { ':method': 'POST', 'content-type': 'application/json', ...auth };
    const h2 = await http2Request(session, EVENTS, headers, big);
    const h1 = await rawRequest(server, EVENTS, {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect({ status: h2.status, text: h2.text }).toEqual({ status: h1.status, text: h1.text });
    expect(h2.status).toBe(413);
    // The session is still usable.
    expect((await http2Request(session, '/livez', auth)).text).toBe('ok');
  });

  it('gzips a large list for a client that accepts it, streamed as over HTTP/1.1', async () => {
    const ns = '/api/v1/namespaces/h2-gzip/configmaps';
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'h2-gzip' } } }))
        .status,
    ).toBe(201);
    for (let i = 0; i < 300; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          server.request('POST', ns, {
            body: { metadata: { name: `cm-${i + j}` }, data: { v: 'x'.repeat(1000) } },
          }),
        ),
      );
    }
    const gz = await http2Bytes(session, ns, { ...auth, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const items = (body: Buffer) =>
      (JSON.parse(body.toString('utf8')) as { items: { metadata: { name: string } }[] }).items.filter((i) =>
        i.metadata.name.startsWith('cm-'),
      ).length;
    expect(items(gunzipSync(gz.body))).toBe(300);
    const plain = await http2Bytes(session, ns, auth);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(items(plain.body)).toBe(300);
  });
});

describe.each([
  ['on (the default)', [], true],
  ['off', ['--feature-gates=UnauthenticatedHTTP2DOSMitigation=false'], false],
] as const)('UnauthenticatedHTTP2DOSMitigation %s', (_name, args, mitigated) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: [...args] });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Whether the session got a GOAWAY once the answer to one request on it was read. */
  async function goawayAfter(
    headers: Record<string, string>,
    path = '/livez',
  ): Promise<{ status: number; goaway: boolean }> {
    const session = await http2Session(server.url, server.ca);
    let goaway = false;
    session.once('goaway', () => (goaway = true));
    const r = await http2Request(session, path, headers);
    // Still open: a PING answered after the response proves no GOAWAY was on its way before it.
    await new Promise<void>((resolve) => (session.closed ? resolve() : session.ping(() => resolve())));
    session.close();
    return { status: r.status, goaway };
  }

  it(
    mitigated
      ? 'ends a session after an anonymous or refused request, not after an authenticated one'
      : 'keeps every session open',
    async () => {
      expect(await goawayAfter({})).toEqual({ status: 200, goaway: mitigated });
      expect(await goawayAfter({ authorization: 'Bearer wrong' }, EVENTS)).toEqual({
        status: 401,
        goaway: mitigated,
      });
      expect(await goawayAfter(auth, EVENTS)).toEqual({ status: 200, goaway: false });
    },
  );
});

describe('real kubectl over HTTP/2', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("negotiates h2 (Go's default over TLS) and gets, applies and watches", async () => {
    const config = clientConfig(server);
    // Go's http2 debug log names the transport and the :method of each request it sends.
    const traced = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(
        KUBECTL,
        [
          `--kubeconfig=${config.kubeconfig}`,
          `--cache-dir=${config.dir}/cache`,
          'get',
          'namespace',
          'default',
          '-o',
          'name',
        ],
        { env: { ...process.env, GODEBUG: 'http2debug=1' }, timeout: 60_000 },
        (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve({ stdout, stderr }),
      ),
    );
    expect(traced.stdout.trim()).toBe('namespace/default');
    expect(traced.stderr).toMatch(/http2: Transport encoding header ":method" = "GET"/);

    const watch = new KubectlStream(config, ['get', 'configmaps', '-n', 'default', '--watch', '-o', 'name']);
    try {
      const manifest = writeManifest(
        config,
        'cm.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: over-h2\n  namespace: default\ndata:\n  a: b\n',
      );
      expect(await kubectlOk(config, ['apply', '-f', manifest])).toContain('configmap/over-h2 created');
      await watch.waitFor((out) => out.includes('configmap/over-h2'));
      expect(
        await kubectlOk(config, ['get', 'configmap', 'over-h2', '-n', 'default', '-o', 'jsonpath={.data.a}']),
      ).toBe('b');
    } finally {
      await watch.stop();
    }
  });
});

describe('HTTP/2 with --goaway-chance', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--goaway-chance=0.02'] });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends GOAWAY on a few sessions; every request is answered on the session or the next one', async () => {
    // Binomial(600, 0.02): mean 12; no GOAWAY at all has probability 0.98^600 = 5.5e-6, more than
    // 45 about 1e-12. A client opens a new session once its current one said GOAWAY.
    let session = await http2Session(server.url, server.ca);
    let goaways = 0;
    const failures: string[] = [];
    const watchGoaway = (s: ClientHttp2Session) => s.once('goaway', () => goaways++);
    watchGoaway(session);
    for (let i = 0; i < 600; i++) {
      if (session.closed || session.destroyed) {
        session = await http2Session(server.url, server.ca);
        watchGoaway(session);
      }
      const r = await http2Request(session, EVENTS, auth);
      if (r.status !== 200) failures.push(`${r.status} ${r.text}`);
      expect(r.headers.connection).toBeUndefined();
    }
    session.close();
    expect(failures).toEqual([]);
    expect(goaways).toBeGreaterThan(0);
    expect(goaways).toBeLessThanOrEqual(45);
  });
});

describe('HTTP/2 and shutdown', () => {
  let running: TestApiServer | undefined;
  afterEach(async () => {
    await running?.stop('SIGKILL');
    running = undefined;
  });

  it('SIGTERM ends open h2 watches cleanly, sends GOAWAY and exits 0', async () => {
    const server = (running = await TestApiServer.start());
    await server.ready();
    const session = await http2Session(server.url, server.ca);
    const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()));
    const watches = Array.from({ length: 5 }, () => http2Watch(session, `${EVENTS}?watch=true`, auth));
    expect(await Promise.all(watches.map((w) => w.status))).toEqual(Array(5).fill(200));
    signal(server);
    await Promise.all(watches.map((w) => w.ended));
    await goaway;
    expect((await exited(server)).code).toBe(0);
  });
});

/** The watches the server is serving, from apiserver_longrunning_requests. */
async function watchesRunning(server: TestApiServer): Promise<number> {
  const text = (await server.request('GET', '/metrics')).text;
  return text
    .split('\n')
    .filter((l) => l.startsWith('apiserver_longrunning_requests{') && l.includes('verb="WATCH"'))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/** A whole response body as bytes, undecoded. */
function http2Bytes(session: ClientHttp2Session, path: string, headers: Record<string, string>) {
  return new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const stream = session.request({ ':path': path, ...headers });
    const chunks: Buffer[] = [];
    let got: IncomingHttpHeaders = {};
    stream.on('response', (h) => (got = h));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ headers: got, body: Buffer.concat(chunks) }));
    stream.on('error', reject);
  });
}

async function untilAsync(test: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function until(test: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}
