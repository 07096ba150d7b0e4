/**
 * The garbage collector's cost and speed, each against a baseline measured in the same run:
 * (1) creating dependents (ConfigMaps with an ownerReference) through a server that runs the
 * collector against one started with --enable-garbage-collector=false (each on its own Redis),
 * alternating rounds;
 * (2) the collector deleting an owner's dependents after a background delete against a client
 * deleting the same number of objects itself, one request each, 8 at a time.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';

const PER_ROUND = 400;
const ROUNDS = 3;
const PARALLEL = 8;

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: unknown }>;

function client(server: TestApiServer): { call: Call; close: () => Promise<void> } {
  const agent = new Agent({ connect: { ca: server.ca }, connections: PARALLEL });
  const call: Call = async (method, path, body) => {
    const r = await request(server.url + path, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      dispatcher: agent,
    });
    const text = await r.body.text();
    return { status: r.statusCode, json: text ? (JSON.parse(text) as unknown) : undefined };
  };
  return { call, close: () => agent.close() };
}

async function parallel(n: number, job: (i: number) => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < n) await job(next++);
    }),
  );
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function createOwner(call: Call, ns: string, name: string): Promise<Record<string, unknown>> {
  const r = await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
  if (r.status !== 201) throw new Error(`create ${name}: ${r.status}`);
  const meta = (r.json as { metadata: { uid: string } }).metadata;
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid: meta.uid };
}

/** Milliseconds to create PER_ROUND dependents of one owner. */
async function createDependents(call: Call, ns: string, owner: Record<string, unknown>): Promise<number> {
  return parallel(PER_ROUND, async (i) => {
    const r = await call('POST', `/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: `dep-${i}`, ownerReferences: [owner] },
      data: { k: 'x'.repeat(100) },
    });
    if (r.status !== 201) throw new Error(`create dep-${i}: ${r.status}`);
  });
}

async function remaining(call: Call, ns: string): Promise<number> {
  const r = await call('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=`);
  return (r.json as { items: { metadata: { name: string } }[] }).items.filter((i) =>
    i.metadata.name.startsWith('dep-'),
  ).length;
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function run(): Promise<void> {
  // One Redis each: the collector watches every write to its store, whichever server makes it.
  const redises = await Promise.all([startRedisServer(), startRedisServer()]);
  const store = (i: 0 | 1) => [
    `--store-servers=${redises[i].url}`,
    `--store-prefix=/bench-${randomBytes(4).toString('hex')}`,
  ];
  const on = await TestApiServer.start({ args: store(0) });
  const off = await TestApiServer.start({ args: [...store(1), '--enable-garbage-collector=false'] });
  const [onClient, offClient] = [client(on), client(off)];
  try {
    await Promise.all([on.ready(), off.ready()]);
    const createOn: number[] = [];
    const createOff: number[] = [];
    const collect: number[] = [];
    const byHand: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const nsOff = `off-${round}`;
      const ownerOff = await createOwner(offClient.call, nsOff, 'owner');
      createOff.push(await createDependents(offClient.call, nsOff, ownerOff));
      const nsOn = `on-${round}`;
      const ownerOn = await createOwner(onClient.call, nsOn, 'owner');
      createOn.push(await createDependents(onClient.call, nsOn, ownerOn));

      // The collector deletes nsOn's dependents; a client deletes nsOff's (their owner stays).
      const start = process.hrtime.bigint();
      await onClient.call('DELETE', `/api/v1/namespaces/${nsOn}/configmaps/owner`);
      while ((await remaining(onClient.call, nsOn)) > 0) await new Promise((r) => setTimeout(r, 20));
      collect.push(Number(process.hrtime.bigint() - start) / 1e6);
      byHand.push(
        await parallel(PER_ROUND, async (i) => {
          await offClient.call('DELETE', `/api/v1/namespaces/${nsOff}/configmaps/dep-${i}`);
        }),
      );
    }
    console.log(
      `creating ${PER_ROUND} dependents: with the collector ${med(createOn).toFixed(0)} ms, without ` +
        `${med(createOff).toFixed(0)} ms, ratio ${(med(createOn) / med(createOff)).toFixed(2)} ` +
        `(median of ${ROUNDS} alternating rounds, ${PARALLEL} at a time)`,
    );
    console.log(
      `deleting ${PER_ROUND} dependents: the collector after one DELETE ${med(collect).toFixed(0)} ms, ` +
        `a client one by one ${med(byHand).toFixed(0)} ms, ratio ${(med(collect) / med(byHand)).toFixed(2)} ` +
        `(median of ${ROUNDS} rounds)`,
    );
  } finally {
    await Promise.all([onClient.close(), offClient.close()]);
    await Promise.all([on.stop(), off.stop()]);
    await Promise.all(redises.map((r) => r.stop()));
  }
}
