/**
 * The benchmark's baselines, run as their own process like the daemon: a bare Node HTTPS server
 * and an Express HTTPS server answering every request with the same fixed JSON body after reading
 * the request body; and `express-redis`, the least an Express app can do to create an object in
 * Redis as the store must (parse the body, one Lua script that bumps the shared version and writes
 * the object and its change log, answer with the stored object).
 * `node --import tsx bench/baseline-server.ts <bare|express|express-redis> <port> <cert> <key> [redis-url]`.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import express from 'express';
import { Redis } from 'ioredis';

const [kind, portText, certFile, keyFile, redisUrl] = process.argv.slice(2);
const body =
  JSON.stringify({
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: {
      name: 'bench-abcde',
      namespace: 'default',
      uid: '3f1e6c2a-0000-4000-8000-000000000000',
      resourceVersion: '1',
      creationTimestamp: '2026-11-21T00:00:00Z',
    },
    eventTime: '2026-11-21T00:00:00.000000Z',
    reason: 'Bench',
    note: 'a benchmark event',
    type: 'Normal',
  }) + '\n';
const tls = { cert: readFileSync(certFile ?? ''), key: readFileSync(keyFile ?? '') };

// Bump the version, create the object unless it exists, append to the change log: the shape of
// the store's own write script, without its index and expiry bookkeeping.
const CREATE = `
local rv = redis.call('INCR', KEYS[1])
if redis.call('HSETNX', KEYS[2], 'v', ARGV[1]) == 0 then return -1 end
redis.call('HSET', KEYS[2], 'rv', rv)
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 10000, '*', 'k', KEYS[2], 'rv', rv)
return rv`;

if (kind === 'express-redis') {
  const redis = new Redis(redisUrl ?? '', { enableAutoPipelining: true });
  const sha = (await redis.script('LOAD', CREATE)) as string;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json({ limit: '3mb' }));
  app.use((req, res, next) => {
    if (req.headers.authorization === undefined) return void res.status(401).end();
    const obj = req.body as { metadata?: Record<string, unknown> };
    const name = `bench-${randomUUID().slice(0, 5)}`;
    const uid = randomUUID();
    const metadata = { ...obj.metadata, name, uid, creationTimestamp: new Date().toISOString() };
    const stored = JSON.stringify({ ...obj, metadata });
    redis.evalsha(sha, 3, 'bench:rv', `bench:obj:${uid}`, 'bench:log', stored).then((rv) => {
      res
        .status(201)
        .type('application/json')
        .send(JSON.stringify({ ...obj, metadata: { ...metadata, resourceVersion: String(rv) } }) + '\n');
    }, next);
  });
  createServer(tls, app).listen(Number(portText), '127.0.0.1', () => console.log('ready'));
} else if (kind === 'express') {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use((req, res) => {
    req.resume();
    req.on('end', () => res.status(201).type('application/json').send(body));
  });
  createServer(tls, app).listen(Number(portText), '127.0.0.1', () => console.log('ready'));
} else {
  createServer(tls, (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  }).listen(Number(portText), '127.0.0.1', () => console.log('ready'));
}
