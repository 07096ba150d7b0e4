/**
 * `pnpm bench apf [--report-only]`: event creates by a user of the global-default priority level
 * (the admin would be exempt and skip the queues) against a server without priority and fairness
 * (the in-flight limits instead) and without the request metrics, and against one with both, as
 * Keel runs by default, in alternating turns of one run (see support/create-ab.ts). The goal: APF
 * and the metrics cost at most 10% — judged on server CPU per request, which a loaded machine
 * disturbs far less than throughput. Above it the run fails (exit code 1) unless --report-only.
 */
import { loadavg } from 'node:os';
import { TestApiServer, USER_TOKEN } from '@keel/testing';
import { compareCreates } from './support/create-ab.js';

const TARGET_PERCENT = 10;

/** What every request records: the candidate pays for these, the baseline does not. */
const REQUEST_METRICS = [
  'apiserver_request_total',
  'apiserver_request_duration_seconds',
  'apiserver_current_inflight_requests',
  'apiserver_longrunning_requests',
];

export async function run(): Promise<void> {
  const plain = await TestApiServer.start({
    args: ['--enable-priority-and-fairness=false', `--disabled-metrics=${REQUEST_METRICS.join(',')}`],
  });
  const apf = await TestApiServer.start();
  try {
    const results = await compareCreates({
      heading: 'creates as a global-default user',
      baseline: { server: plain, label: 'in-flight limits, no request metrics' },
      candidate: { server: apf, label: 'priority and fairness + metrics' },
      token: USER_TOKEN,
      targetPercent: TARGET_PERCENT,
    });
    console.log(
      `server CPU per request (load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}):`,
    );
    const percent = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;
    const ratios = results.map((r) => r.candidate.cpuUsPerRequest / r.baseline.cpuUsPerRequest);
    results.forEach((r, i) => {
      const ratio = ratios[i] as number;
      console.log(
        `  c=${String(r.connections).padEnd(3)} without APF ${r.baseline.cpuUsPerRequest.toFixed(0)} us, ` +
          `with APF + metrics ${r.candidate.cpuUsPerRequest.toFixed(0)} us = ${ratio.toFixed(3)}x (${percent(ratio)})`,
      );
    });
    // One concurrency's figure moves by +-5% between runs on a loaded machine: the goal is
    // judged on their mean.
    const mean = ratios.reduce((a, r) => a + r, 0) / ratios.length;
    console.log(`  mean ${mean.toFixed(3)}x (${percent(mean)}; goal <= +${TARGET_PERCENT}%)`);
    if (!(mean <= 1 + TARGET_PERCENT / 100) && !process.argv.includes('--report-only')) {
      console.log(
        `APF + metrics cost more than ${TARGET_PERCENT}% CPU per request (--report-only to only print)`,
      );
      process.exitCode = 1;
    }
  } finally {
    await Promise.all([plain.stop(), apf.stop()]);
  }
}
