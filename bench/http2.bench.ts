/**
 * Small GETs (one ConfigMap) through the whole request chain, 20 at a time: over ONE HTTP/2
 * connection (as kubectl and client-go multiplex) against HTTP/1.1 keep-alive connections, up to
 * 20 (as a client without HTTP/2 pools them). One server, alternating rounds in the same run.
 */
import { Agent, request as httpsRequest } from 'node:https';
import type { ClientHttp2Session } from 'node:http2';
import { ADMIN_TOKEN, http2Request, http2Session, TestApiServer } from '@keel/testing';

const ROUNDS = 5;
const REQUESTS = 1000;
const CONCURRENCY = 20;
const PATH = '/api/v1/namespaces/default/configmaps/bench';
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

function h1Get(server: TestApiServer, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${server.url}${PATH}`, { agent, headers: auth }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Requests per second for REQUESTS GETs, CONCURRENCY in flight. */
async function rate(get: () => Promise<number>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  const worker = async () => {
    while (next++ < REQUESTS) {
      const status = await get();
      if (status !== 200) throw new Error(`GET answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return REQUESTS / (Number(process.hrtime.bigint() - start) / 1e9);
}

export async function run(): Promise<void> {
  const server = await TestApiServer.start();
  let session: ClientHttp2Session | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: server.ca });
  try {
    await server.ready();
    const created = await server.request('POST', PATH.replace(/\/bench$/, ''), {
      body: { metadata: { name: 'bench' }, data: { k: 'v' } },
    });
    if (created.status !== 201) throw new Error(`create: ${created.status}`);
    const s = (session = await http2Session(server.url, server.ca));
    const h2 = () => http2Request(s, PATH, auth).then((r) => r.status);
    const h1 = () => h1Get(server, agent);
    // Warm-up: connections, TLS sessions, the JIT.
    await rate(h2);
    await rate(h1);
    const h2Rates: number[] = [];
    const h1Rates: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      h2Rates.push(await rate(h2));
      h1Rates.push(await rate(h1));
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    const ratios = h2Rates.map((r, i) => r / (h1Rates[i] ?? NaN));
    console.log(
      `GET one ConfigMap, ${CONCURRENCY} in flight: HTTP/2 (one connection) ${med(h2Rates).toFixed(0)} req/s, ` +
        `HTTP/1.1 (keep-alive, up to ${CONCURRENCY} connections) ${med(h1Rates).toFixed(0)} req/s, ` +
        `ratio ${med(ratios).toFixed(2)} (median of ${ROUNDS} alternating rounds of ${REQUESTS})`,
    );
  } finally {
    session?.close();
    agent.destroy();
    await server.stop();
  }
}
