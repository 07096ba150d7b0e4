import { discardLogger } from '@keel/log';
import { describe, expect, it, vi } from 'vitest';
import { makePod } from '../framework/testing/fixtures.js';
import type { Pod } from '../framework/types.js';
import {
  disruptionTargetPatch,
  PreemptionExecutor,
  type PreemptionExecutorDeps,
} from './preemption-executor.js';

const NOW = Date.UTC(2024, 0, 2, 3, 4, 5);
const withConditions = (conditions: unknown[]): Pod => {
  const pod = makePod('v');
  return { ...pod, status: { ...pod.status, conditions } };
};
const target = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'PreemptionByScheduler',
  message: 'default-scheduler: preempting to accommodate a higher priority pod',
  lastProbeTime: null,
};

describe('disruptionTargetPatch', () => {
  it("adds kube's DisruptionTarget condition, naming the preemptor's scheduler", () => {
    expect(disruptionTargetPatch(makePod('v'), 'default-scheduler', NOW)).toEqual({
      status: { conditions: [{ ...target, lastTransitionTime: '2024-01-02T03:04:05Z' }] },
    });
  });
  it('keeps the other conditions in order', () => {
    const p = withConditions([{ type: 'PodScheduled', status: 'True' }]);
    expect(disruptionTargetPatch(p, 'default-scheduler', NOW)).toMatchObject({
      status: { '$setElementOrder/conditions': [{ type: 'PodScheduled' }, { type: 'DisruptionTarget' }] },
    });
  });
  it('writes nothing when the victim already carries it', () => {
    const p = withConditions([{ ...target, lastTransitionTime: '2024-01-01T00:00:00Z' }]);
    expect(disruptionTargetPatch(p, 'default-scheduler', NOW)).toBeUndefined();
  });
});

describe('PreemptionExecutor', () => {
  /** A client whose deletes wait until `finish()` is called. */
  function setup() {
    const calls: string[] = [];
    const pending: (() => void)[] = [];
    const client = {
      patch: (path: string) => {
        calls.push(`patch ${path}`);
        return Promise.resolve({});
      },
      delete: (path: string) => {
        calls.push(`delete ${path}`);
        return new Promise<unknown>((resolve) => pending.push(() => resolve({})));
      },
    } as unknown as PreemptionExecutorDeps['client'];
    const done: string[] = [];
    const ex = new PreemptionExecutor({
      client,
      recorder: () => undefined,
      logger: discardLogger,
      podDisruptionBudgets: () => [],
      now: () => NOW,
      onDone: (pod) => done.push(pod.metadata.name ?? ''),
    });
    const finish = () => pending.splice(0).forEach((f) => f());
    return { ex, calls, done, finish };
  }
  const plan = (preemptor: Pod, ...victims: Pod[]) => ({
    preemptor,
    nodeName: 'n1',
    victims,
    nominatedToClear: [],
  });

  it('counts the preemptor as preempting until its victims are deleted, then reports it done once', async () => {
    const { ex, calls, done, finish } = setup();
    const p = makePod('p');
    ex.execute(plan(p, makePod('v1'), makePod('v2')));
    expect(ex.isPreempting(p)).toBe(true);
    expect(ex.isPreempting(makePod('other'))).toBe(false);
    await vi.waitFor(() => expect(calls.filter((c) => c.startsWith('delete'))).toHaveLength(2));
    expect(done).toEqual([]);
    finish();
    await ex.settle();
    expect(ex.isPreempting(p)).toBe(false);
    expect(done).toEqual(['p']);
  });

  it('reports a failed preemption as done too, so the preemptor is not held forever', async () => {
    const { ex, done } = setup();
    const failing = new PreemptionExecutor({
      client: {
        patch: () => Promise.reject(new Error('boom')),
        delete: () => Promise.reject(new Error('boom')),
      },
      recorder: () => undefined,
      logger: discardLogger,
      podDisruptionBudgets: () => [],
      onDone: (pod) => done.push(pod.metadata.name ?? ''),
    });
    failing.execute(plan(makePod('p'), makePod('v')));
    await failing.settle();
    expect(failing.isPreempting(makePod('p'))).toBe(false);
    expect(done).toEqual(['p']);
    expect(ex.isPreempting(makePod('p'))).toBe(false);
  });

  describe('waiting for the victims to leave the cache', () => {
    function withCache(victimWaitMs?: number) {
      const inCache = new Set<string>();
      const done: string[] = [];
      const ex = new PreemptionExecutor({
        client: {
          patch: () => Promise.resolve({}),
          delete: () => Promise.resolve({}),
        } as unknown as PreemptionExecutorDeps['client'],
        recorder: () => undefined,
        logger: discardLogger,
        podDisruptionBudgets: () => [],
        victimInCache: (v) => inCache.has(v.metadata.name ?? ''),
        ...(victimWaitMs !== undefined ? { victimWaitMs } : {}),
        onDone: (pod) => done.push(pod.metadata.name ?? ''),
      });
      return { ex, inCache, done };
    }

    it('holds the preemptor after the deletes until the cache no longer has any of its victims', async () => {
      const { ex, inCache, done } = withCache();
      const p = makePod('p');
      const [v1, v2] = [makePod('v1'), makePod('v2')];
      inCache.add('v1').add('v2');
      ex.execute(plan(p, v1, v2));
      await new Promise((r) => setTimeout(r, 20));
      expect(ex.isPreempting(p)).toBe(true);
      inCache.delete('v1');
      ex.podChanged(v1);
      await new Promise((r) => setTimeout(r, 5));
      // A change the cache still holds as running (e.g. the DisruptionTarget condition) is no exit.
      ex.podChanged(v2);
      expect(done).toEqual([]);
      inCache.delete('v2');
      ex.podChanged(v2);
      await ex.settle();
      expect(ex.isPreempting(p)).toBe(false);
      expect(done).toEqual(['p']);
    });

    it('ends with the writes when the cache already lost the victims', async () => {
      const { ex, done } = withCache();
      ex.execute(plan(makePod('p'), makePod('v')));
      await ex.settle();
      expect(done).toEqual(['p']);
    });

    it('stops waiting after a while, so a missed deletion does not hold the preemptor for good', async () => {
      const { ex, inCache, done } = withCache(30);
      inCache.add('v');
      ex.execute(plan(makePod('p'), makePod('v')));
      await new Promise((r) => setTimeout(r, 10));
      expect(done).toEqual([]);
      await vi.waitFor(() => expect(done).toEqual(['p']));
      expect(ex.isPreempting(makePod('p'))).toBe(false);
    });

    it('waits only for the writes once shutting down', async () => {
      const { ex, inCache, done } = withCache(60_000);
      inCache.add('v1').add('v2');
      ex.execute(plan(makePod('p'), makePod('v1')));
      await new Promise((r) => setTimeout(r, 10));
      ex.execute(plan(makePod('q'), makePod('v2')));
      await ex.settle();
      expect(done).toEqual(['p', 'q']);
    });
  });
});
