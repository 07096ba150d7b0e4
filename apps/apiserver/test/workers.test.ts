import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TOKEN, apiServerEntry, DaemonProcess, freePort, runNode, TestApiServer } from '@keel/testing';

// --workers: N node:cluster workers behind one secure port, each a whole API server on the shared
// Redis store, under one primary. Which worker answered is in the X-Keel-Worker response header
// and in every log line (worker=N).

const CM = '/api/v1/namespaces/default/configmaps';
const HEADER = 'x-keel-worker';

interface Answer {
  readonly status: number;
  readonly worker: string | undefined;
  readonly json: unknown;
}

async function send(
  agent: Agent,
  server: TestApiServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const res = await request(server.url + path, {
    method: method as 'GET',
    dispatcher: agent,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  const worker = res.headers[HEADER];
  return {
    status: res.statusCode,
    worker: typeof worker === 'string' ? worker : undefined,
    json: text.startsWith('{') ? JSON.parse(text) : undefined,
  };
}

/** One request on a connection of its own, so node:cluster hands it to the next worker. */
async function onNewConnection(
  server: TestApiServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const agent = new Agent({ connect: { ca: server.ca } });
  try {
    return await send(agent, server, method, path, body);
  } finally {
    await agent.close();
  }
}

/**
 * One request through a worker `accept` takes: connections are opened (and probed with /livez)
 * until one lands on such a worker, and the request is sent once, on that kept-alive connection.
 */
async function onWorker(
  server: TestApiServer,
  accept: (worker: string | undefined) => boolean,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  for (let i = 0; i < 40; i++) {
    const agent = new Agent({ connect: { ca: server.ca }, connections: 1 });
    try {
      const probe = await send(agent, server, 'GET', '/livez');
      if (!accept(probe.worker)) continue;
      const answer = await send(agent, server, method, path, body);
      expect(answer.worker).toBe(probe.worker);
      return answer;
    } finally {
      await agent.close();
    }
  }
  throw new Error(`no connection to the wanted worker for ${method} ${path} in 40 tries`);
}

/** The pid of the newest process that logged it started as worker `slot`. */
function workerPid(stderr: string, slot: number): number | undefined {
  const re = new RegExp(`^I\\S+ \\S+\\s+(\\d+) \\S+\\] "Starting Keel API server" worker=${slot} `, 'gm');
  const pids = [...stderr.matchAll(re)].map((m) => Number(m[1]));
  return pids.at(-1);
}

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A watch on its own connection (whichever worker takes it); the events, as they arrive. */
async function openWatch(server: TestApiServer, path: string) {
  const agent = new Agent({ connect: { ca: server.ca } });
  const res = await request(server.url + path, {
    dispatcher: agent,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  const names: string[] = [];
  let buffer = '';
  res.body.setEncoding('utf8');
  res.body.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const ev = JSON.parse(buffer.slice(0, nl)) as { type: string; object: { metadata: { name: string } } };
      buffer = buffer.slice(nl + 1);
      names.push(`${ev.type} ${ev.object.metadata.name}`);
    }
  });
  res.body.on('error', () => undefined);
  const worker = res.headers[HEADER];
  return {
    status: res.statusCode,
    worker: typeof worker === 'string' ? worker : undefined,
    names,
    close: () => agent.destroy(),
  };
}

describe('--workers=2 on Redis', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        `--store-servers=${inject('redisUrl')}`,
        `--store-prefix=/workers-${randomBytes(6).toString('hex')}`,
        '--workers=2',
      ],
      // Two workers load the whole server at once: slow on a busy machine.
      startTimeoutMs: 90_000,
    });
    await server.ready(90_000);
  }, 120_000);
  afterAll(async () => {
    // The SIGTERM test stops it; this only cleans up after a failure.
    if (server.process.child.exitCode === null) await server.stop('SIGKILL');
  });

  it('both workers answer on the one port, /readyz included, and log with their worker id', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => onNewConnection(server, 'GET', '/readyz')),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(new Set(answers.map((a) => a.worker))).toEqual(new Set(['1', '2']));
    const log = server.process.stderr;
    expect(log).toMatch(/"Starting workers" workers=2 pid=\d+/);
    expect(log).toMatch(/"Serving securely" worker=1 /);
    expect(log).toMatch(/"Serving securely" worker=2 /);
    expect(log).toMatch(/"All workers started" workers=2/);
    expect(workerPid(log, 1)).not.toBe(workerPid(log, 2));
    // Ready only as a whole: each worker's /readyz has the check for every worker having started.
    const verbose = await server.request('GET', '/readyz?verbose');
    expect(verbose.text).toContain('[+]workers ok');
  });

  it('a write through one worker is read through the other and seen by a watch on the other', async () => {
    const name = `shared-${randomBytes(4).toString('hex')}`;
    const watch = await openWatch(server, `${CM}?watch=true&fieldSelector=metadata.name%3D${name}`);
    try {
      expect(watch.status).toBe(200);
      const other = (w: string | undefined) => w !== undefined && w !== watch.worker;
      const created = await onWorker(server, other, 'POST', CM, { metadata: { name }, data: { a: '1' } });
      expect(created.status).toBe(201);
      const read = await onWorker(server, (w) => w === watch.worker, 'GET', `${CM}/${name}`);
      expect(read.status).toBe(200);
      expect(read.json).toMatchObject({ metadata: { name }, data: { a: '1' } });
      await until('the watch event', () => watch.names.includes(`ADDED ${name}`), 20_000);
    } finally {
      watch.close();
    }
  });

  it('controllers run as on several servers: a dependent of an owner deleted through either worker is collected', async () => {
    const owner = `owner-${randomBytes(4).toString('hex')}`;
    const created = await onWorker(server, (w) => w === '1', 'POST', CM, { metadata: { name: owner } });
    expect(created.status).toBe(201);
    const uid = (created.json as { metadata: { uid: string } }).metadata.uid;
    const dependent = await onWorker(server, (w) => w === '2', 'POST', CM, {
      metadata: {
        name: `${owner}-dep`,
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid }],
      },
    });
    expect(dependent.status).toBe(201);
    const deleted = await onWorker(server, (w) => w === '1', 'DELETE', `${CM}/${owner}`);
    expect(deleted.status).toBe(200);
    await until('the dependent to be collected', async () => {
      const got = await onNewConnection(server, 'GET', `${CM}/${owner}-dep`);
      return got.status === 404;
    });
  }, 90_000);

  it('a killed worker is restarted by the primary while the port keeps answering', async () => {
    const killed = workerPid(server.process.stderr, 2);
    expect(killed).toBeDefined();
    process.kill(killed!, 'SIGKILL');
    await until('the primary to notice', () =>
      /"Worker exited unexpectedly; restarting it" worker=2 pid=\d+ reason="killed by SIGKILL"/.test(
        server.process.stderr,
      ),
    );
    // Worker 1 alone answers meanwhile.
    const meanwhile = await Promise.all(
      Array.from({ length: 6 }, () => onNewConnection(server, 'GET', '/livez')),
    );
    expect(meanwhile.map((a) => a.status)).toEqual(Array(6).fill(200));
    await until('a new worker 2', () => {
      const pid = workerPid(server.process.stderr, 2);
      return pid !== undefined && pid !== killed;
    });
    await until('worker 2 to answer again', async () => {
      const a = await onNewConnection(server, 'GET', '/readyz');
      return a.worker === '2' && a.status === 200;
    });
  }, 120_000);

  it('SIGTERM to the primary drains every worker and exits 0', async () => {
    const result = await server.stop('SIGTERM');
    expect(result).toBe(0);
    const log = server.process.stderr;
    expect(log).toMatch(/"Shut down cleanly" worker=1/);
    expect(log).toMatch(/"Shut down cleanly" worker=2/);
    expect(log).toMatch(/"All workers shut down cleanly" workers=2/);
    expect(log).not.toMatch(/resources still open/);
  }, 60_000);
});

describe('--workers start-up rules', () => {
  const tokens = (() => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-workers-'));
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, `${ADMIN_TOKEN},admin,uid-admin,"system:masters"\n`);
    return { dir, file };
  })();
  const base = async () => [
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
    `--cert-dir=${join(tokens.dir, 'certs')}`,
    `--token-auth-file=${tokens.file}`,
  ];

  it('more than one worker on the embedded store is refused with one line, before forking', async () => {
    const r = await runNode(apiServerEntry, [...(await base()), '--workers=2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: --workers=2 needs --store-servers: the embedded in-memory store lives in one process and cannot be shared by workers\n',
    );
  });

  it('a negative count is refused with one line', async () => {
    const r = await runNode(apiServerEntry, [
      ...(await base()),
      `--store-servers=${inject('redisUrl')}`,
      '--workers=-1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: --workers must be 0 (one per core with a Redis store) or a positive count, got -1\n',
    );
  });

  it('by default: one process on the embedded store', async () => {
    const proc = DaemonProcess.start(apiServerEntry, await base());
    try {
      await proc.waitFor(/"Serving securely"/, 60_000);
      expect(proc.stderr).not.toMatch(/Starting workers/);
      expect(proc.stderr).not.toMatch(/ worker=/);
    } finally {
      expect((await proc.stop()).code).toBe(0);
    }
  }, 90_000);

  it('by default: one worker per core on Redis', async () => {
    const cores = availableParallelism();
    const proc = DaemonProcess.start(apiServerEntry, [
      ...(await base()),
      `--store-servers=${inject('redisUrl')}`,
      `--store-prefix=/workers-${randomBytes(6).toString('hex')}`,
    ]);
    try {
      await proc.waitFor(/"Serving securely"/, 60_000);
      if (cores > 1) expect(proc.stderr).toMatch(new RegExp(`"Starting workers" workers=${cores} `));
      else expect(proc.stderr).not.toMatch(/Starting workers/);
    } finally {
      expect((await proc.stop()).code).toBe(0);
    }
  }, 90_000);

  it('a worker that keeps failing at start-up makes the primary exit 1 with its reason', async () => {
    // The port is taken, so every worker's listen fails; flags alone cannot tell.
    const blocker: Server = createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    try {
      const r = await runNode(
        apiServerEntry,
        [
          ...(await base()).filter((a) => !a.startsWith('--secure-port')),
          `--secure-port=${port}`,
          `--store-servers=${inject('redisUrl')}`,
          '--workers=2',
        ],
        { timeoutMs: 90_000 },
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /"Worker keeps failing at start-up; stopping the server" worker=\d failures=3 reason="failed to create listener: .*address already in use"/,
      );
    } finally {
      blocker.close();
    }
  }, 120_000);
});
