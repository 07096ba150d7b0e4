/**
 * `pnpm bench apf`: event creates by a user of the global-default priority level (the admin
 * would be exempt and skip the queues) against a server without priority and fairness (the
 * in-flight limits instead) and without the request metrics, and against one with both, as
 * Keel runs by default (target: at most 10% slower); see support/create-ab.ts.
 */
import { TestApiServer, USER_TOKEN } from '@keel/testing';
import { compareCreates } from './support/create-ab.js';

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
    await compareCreates({
      heading: 'creates as a global-default user',
      baseline: { server: plain, label: 'in-flight limits, no request metrics' },
      candidate: { server: apf, label: 'priority and fairness + metrics' },
      token: USER_TOKEN,
      targetPercent: 10,
    });
  } finally {
    await Promise.all([plain.stop(), apf.stop()]);
  }
}
