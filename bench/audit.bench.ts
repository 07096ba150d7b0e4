/**
 * `pnpm bench audit`: event creates on the memory store with auditing off, and with a Metadata
 * policy writing to the log sink in batch mode, measured in turns in the same run (target: the
 * audited server at most 15% slower).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, TestApiServer } from '@keel/testing';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
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

async function rps(server: TestApiServer, connections: number): Promise<{ rps: number; errors: number }> {
  const r = await autocannon({
    url: server.url + EVENTS_PATH,
    method: 'POST',
    connections,
    duration: DURATION_S,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca: server.ca },
  });
  return { rps: r.requests.average, errors: r.non2xx + r.errors + r.timeouts };
}

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
    await Promise.all([rps(plain, 16), rps(audited, 16)]);
    console.log(`creates, ${DURATION_S}s per run, memory store, HTTPS + bearer token, two turns each:`);
    for (const c of [1, 16]) {
      const off: number[] = [];
      const on: number[] = [];
      let errors = 0;
      // Alternating turns spread the machine's noise over both.
      for (let turn = 0; turn < 2; turn++) {
        const a = await rps(plain, c);
        const b = await rps(audited, c);
        off.push(a.rps);
        on.push(b.rps);
        errors += a.errors + b.errors;
      }
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      const ratio = mean(on) / mean(off);
      console.log(
        `  c=${String(c).padEnd(3)} no audit ${mean(off).toFixed(0).padStart(6)} req/s   ` +
          `audit Metadata + batch log ${mean(on).toFixed(0).padStart(6)} req/s   = ${ratio.toFixed(2)}x ` +
          `(${((1 - ratio) * 100).toFixed(1)}% slower; target <= 15%)` +
          (errors ? `  (${errors} errors)` : ''),
      );
    }
  } finally {
    await Promise.all([plain.stop(), audited.stop()]);
  }
}
