/**
 * `pnpm bench apf`: event creates on the memory store by a user of the global-default priority
 * level, with --enable-priority-and-fairness=false (the in-flight limits) and with priority and
 * fairness and its metrics (the default), measured in alternating turns in the same run (target:
 * at most 10% slower). The figure is the median of the turns' ratios, since a shared machine's
 * noise moves single turns by more than the effect measured; each server's CPU per request (from
 * /proc) is printed beside it. The admin would be exempt and skip the queues, so a plain user
 * sends the requests.
 */
import autocannon from 'autocannon';
import { TestApiServer, USER_TOKEN } from '@keel/testing';
import { cpuSeconds } from './support/process-stats.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 3);
const TURNS = Number(process.env['BENCH_TURNS'] ?? 5);
const EVENTS_PATH = '/apis/events.k8s.io/v1/namespaces/default/events';
const EVENT = JSON.stringify({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { generateName: 'bench-', namespace: 'default' },
  eventTime: '2026-11-21T00:00:00.000000Z',
  action: 'Bench',
  reason: 'Bench',
  note: 'a benchmark event',
  type: 'Normal',
  reportingController: 'keel.dev/bench',
  reportingInstance: 'bench-1',
  regarding: { kind: 'Pod', namespace: 'default', name: 'p1' },
});

interface Turn {
  readonly rps: number;
  readonly requests: number;
  readonly cpuS: number;
  readonly errors: number;
}

async function turn(server: TestApiServer, connections: number): Promise<Turn> {
  const pid = server.process.child.pid;
  const cpuBefore = cpuSeconds(pid);
  const r = await autocannon({
    url: server.url + EVENTS_PATH,
    method: 'POST',
    connections,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${USER_TOKEN}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca: server.ca },
  });
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    cpuS: cpuSeconds(pid) - cpuBefore,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
const cpuPerRequestUs = (ts: readonly Turn[]) =>
  (sum(ts.map((t) => t.cpuS)) / sum(ts.map((t) => t.requests))) * 1e6;

export async function run(): Promise<void> {
  const plain = await TestApiServer.start({ args: ['--enable-priority-and-fairness=false'] });
  const apf = await TestApiServer.start();
  try {
    await plain.ready();
    await apf.ready();
    // Warm both up first, so neither pays for JIT compilation and first allocations in the figures.
    await Promise.all([turn(plain, 16), turn(apf, 16)]);
    console.log(
      `creates as a global-default user, ${TURNS} alternating turns of ${DURATION_S}s, memory store, ` +
        `HTTPS + bearer token (median of the turns' ratios; server CPU per request):`,
    );
    for (const c of [1, 16]) {
      const off: Turn[] = [];
      const on: Turn[] = [];
      for (let i = 0; i < TURNS; i++) {
        // Who goes first alternates too, so drift over the run falls on both.
        if (i % 2 === 0) {
          off.push(await turn(plain, c));
          on.push(await turn(apf, c));
        } else {
          on.push(await turn(apf, c));
          off.push(await turn(plain, c));
        }
      }
      const ratio = median(on.map((t, i) => t.rps / (off[i] as Turn).rps));
      const errors = sum([...off, ...on].map((t) => t.errors));
      console.log(
        `  c=${String(c).padEnd(3)} in-flight limits ${median(off.map((t) => t.rps))
          .toFixed(0)
          .padStart(6)} req/s (${cpuPerRequestUs(off).toFixed(0)} us CPU/req)   priority and fairness ` +
          `${median(on.map((t) => t.rps))
            .toFixed(0)
            .padStart(6)} req/s (${cpuPerRequestUs(on).toFixed(0)} us CPU/req)` +
          `   = ${ratio.toFixed(2)}x (${((1 - ratio) * 100).toFixed(1)}% slower; target <= 10%)` +
          (errors ? `  (${errors} errors)` : ''),
      );
    }
  } finally {
    await Promise.all([plain.stop(), apf.stop()]);
  }
}
