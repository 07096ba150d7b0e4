import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BindPlugin } from '../framework/interface.js';
import { makePod } from '../framework/testing/fixtures.js';
import { loadSchedulerConfigFile, type SchedulerConfiguration } from '../options/index.js';
import { FakeClock } from '../queue/clock.js';
import type { PriorityQueue } from '../queue/priority-queue.js';
import { buildFrameworks, newSchedulingQueue } from './scheduler.js';

const binder: BindPlugin = { name: 'DefaultBinder', bind: () => Promise.resolve(undefined) };

function configFrom(body: string): SchedulerConfiguration {
  const dir = mkdtempSync(join(tmpdir(), 'keel-queue-config-'));
  const path = join(dir, 'config.yaml');
  writeFileSync(
    path,
    `apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n${body}`,
  );
  const r = loadSchedulerConfigFile(path);
  rmSync(dir, { recursive: true, force: true });
  if (!r.config) throw new Error(r.errors.join('; '));
  return r.config;
}

function queueFor(config: SchedulerConfiguration, maxInUnschedulableMs: number) {
  const clock = new FakeClock(1_000_000);
  const incoming: string[] = [];
  const q = newSchedulingQueue(
    config,
    maxInUnschedulableMs,
    buildFrameworks(config, () => binder),
    {
      clock,
      onIncoming: (queue, event) => incoming.push(`${queue} ${event}`),
    },
  );
  const where = (name: string) => q.pendingPods().find((p) => p.pod.metadata.name === name)?.queue;
  return { q, clock, incoming, where };
}

/** Pops the next pod and fails its cycle: with plugins it waits for an event, without it backs off. */
async function fail(q: PriorityQueue, plugins: string[] = []): Promise<void> {
  const p = await q.pop();
  if (!p) throw new Error('queue closed');
  const cycle = q.schedulingCycle();
  p.unschedulablePlugins = new Set(plugins);
  q.addUnschedulable(p, cycle);
  q.done(p.pod);
}

describe('the scheduling queue built from the configuration', () => {
  it('backs off for podInitialBackoffSeconds, doubling up to podMaxBackoffSeconds', async () => {
    const { q, clock, where } = queueFor(
      configFrom('podInitialBackoffSeconds: 4\npodMaxBackoffSeconds: 6\n'),
      60_000,
    );
    q.add(makePod('a'));
    await fail(q);
    clock.advance(3_999); // the default (1 s) would have released it long ago
    q.flushBackoffQCompleted();
    expect(where('a')).toBe('backoff');
    clock.advance(1);
    q.flushBackoffQCompleted();
    expect(where('a')).toBe('active');
    await fail(q); // second attempt: 8 s, capped at 6 s
    clock.advance(5_999);
    q.flushBackoffQCompleted();
    expect(where('a')).toBe('backoff');
    clock.advance(1);
    q.flushBackoffQCompleted();
    expect(where('a')).toBe('active');
  });

  it('moves pods left unschedulable for --pod-max-in-unschedulable-pods-duration', async () => {
    const { q, clock, where, incoming } = queueFor(configFrom(''), 90_000);
    q.add(makePod('b'));
    await fail(q, ['NodeResourcesFit']);
    clock.advance(90_000);
    q.flushUnschedulablePodsLeftover();
    expect(where('b')).toBe('unschedulable');
    clock.advance(1); // well before the default five minutes
    q.flushUnschedulablePodsLeftover();
    expect(where('b')).toBe('active');
    expect(incoming).toEqual([
      'active PodAdd',
      'unschedulable ScheduleAttemptFailure',
      'active UnschedulableTimeout',
    ]);
  });

  it('counts every way into a queue for scheduler_queue_incoming_pods_total', async () => {
    const { q, clock, incoming } = queueFor(configFrom(''), 60_000);
    q.add(makePod('c'));
    q.add(makePod('gated', { schedulingGates: ['example.com/wait'] }));
    await fail(q);
    clock.advance(1_000);
    q.flushBackoffQCompleted();
    expect(incoming).toEqual([
      'active PodAdd',
      'gated PodAdd',
      'backoff ScheduleAttemptFailure',
      'active BackoffComplete',
    ]);
  });
});
