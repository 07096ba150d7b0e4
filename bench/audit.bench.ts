/**
 * `pnpm bench audit`: event creates on the memory store with auditing off, and with a Metadata
 * policy writing to the log sink in batch mode, measured in alternating turns in the same run
 * (target: the audited server at most 15% slower). The figure is the median of the turns'
 * ratios, since a shared machine's noise moves single turns by more than the effect measured;
 * each server's CPU per request (from /proc) is printed beside it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, TestApiServer } from '@keel/testing';
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
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
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
  const dir = mkdtempSync(join(tmpdir(), 'keel-audit-bench-'));
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
  const plain = await TestApiServer.start();
  const audited = await TestApiServer.start({
    args: [
      `--audit-policy-file=${policy}`,
      `--audit-log-path=${join(dir, 'audit.log')}`,
      '--audit-log-mode=batch',
    ],
  });
  try {
    await plain.ready();
    await audited.ready();
    // Warm both up first, so neither pays for JIT compilation and first allocations in the figures.
    await Promise.all([turn(plain, 16), turn(audited, 16)]);
    console.log(
      `creates, ${TURNS} alternating turns of ${DURATION_S}s, memory store, HTTPS + bearer token ` +
        `(median of the turns' ratios; server CPU per request):`,
    );
    for (const c of [1, 16]) {
      const off: Turn[] = [];
      const on: Turn[] = [];
      for (let i = 0; i < TURNS; i++) {
        // Who goes first alternates too, so drift over the run falls on both.
        if (i % 2 === 0) {
          off.push(await turn(plain, c));
          on.push(await turn(audited, c));
        } else {
          on.push(await turn(audited, c));
          off.push(await turn(plain, c));
        }
      }
      const ratio = median(on.map((t, i) => t.rps / (off[i] as Turn).rps));
      const errors = sum([...off, ...on].map((t) => t.errors));
      console.log(
        `  c=${String(c).padEnd(3)} no audit ${median(off.map((t) => t.rps))
          .toFixed(0)
          .padStart(6)} req/s ` +
          `(${cpuPerRequestUs(off).toFixed(0)} us CPU/req)   audit Metadata + batch log ` +
          `${median(on.map((t) => t.rps))
            .toFixed(0)
            .padStart(6)} req/s (${cpuPerRequestUs(on).toFixed(0)} us CPU/req)` +
          `   = ${ratio.toFixed(2)}x (${((1 - ratio) * 100).toFixed(1)}% slower; target <= 15%)` +
          (errors ? `  (${errors} errors)` : ''),
      );
    }
  } finally {
    await Promise.all([plain.stop(), audited.stop()]);
  }
}
