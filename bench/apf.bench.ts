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
    let over = false;
    for (const r of results) {
      const cpuRatio = r.candidate.cpuUsPerRequest / r.baseline.cpuUsPerRequest;
      const extra = (cpuRatio - 1) * 100;
      over ||= !(extra <= TARGET_PERCENT);
      console.log(
        `  c=${String(r.connections).padEnd(3)} without APF ${r.baseline.cpuUsPerRequest.toFixed(0)} us, ` +
          `with APF + metrics ${r.candidate.cpuUsPerRequest.toFixed(0)} us = ${cpuRatio.toFixed(3)}x ` +
          `(${extra >= 0 ? '+' : ''}${extra.toFixed(1)}%; goal <= +${TARGET_PERCENT}%)`,
      );
    }
    if (over && !process.argv.includes('--report-only')) {
      console.log(
        `APF + metrics cost more than ${TARGET_PERCENT}% CPU per request (--report-only to only print)`,
      );
      process.exitCode = 1;
    }
  } finally {
    await Promise.all([plain.stop(), apf.stop()]);
  }
}
