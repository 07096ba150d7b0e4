import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { USER_TOKEN, TestApiServer } from '@keel/testing';
import { EVENT, EVENTS_PATH } from './bench-event.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-apfprof-'));
process.env['KEEL_DAEMON_NODE_ARGS'] = `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=200`;
const server = await TestApiServer.start();
await server.ready();
const run = (duration: number) =>
  autocannon({ url: server.url + EVENTS_PATH, method: 'POST', connections: 16, duration,
    headers: { authorization: `Bearer ${USER_TOKEN}`, 'content-type': 'application/json' }, body: EVENT, tlsOptions: { ca: server.ca } });
await run(3);
const r = await run(Number(process.env['D'] ?? 12));
await server.stop();
console.log(r.requests.total, dir);
