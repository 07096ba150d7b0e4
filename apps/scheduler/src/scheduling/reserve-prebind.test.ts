import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import { Framework } from '../framework/framework.js';
import type { BindPlugin, PreBindPlugin, ReservePlugin } from '../framework/interface.js';
import { Registry } from '../framework/registry.js';
import { Status, type MaybeStatus } from '../framework/status.js';
import { makeNode, makePod, makeProfile } from '../framework/testing/fixtures.js';
import { FakeClock } from '../queue/clock.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import * as prioritySort from '../plugins/priority-sort/priority-sort.js';
import { PodScheduler } from './schedule-one.js';
import { scheduleOne, type SchedulerLoopDeps } from './scheduler-loop.js';

/** A profile whose Reserve and PreBind plugin and binder log what they are asked to do. */
function setup(o: { reserve?: MaybeStatus; preBind?: MaybeStatus }) {
  const log: string[] = [];
  const volumes: ReservePlugin & PreBindPlugin = {
    name: 'Volumes',
    reserve: (_s, pod, node) => (log.push(`reserve ${pod.metadata.name} ${node}`), o.reserve),
    unreserve: (_s, pod, node) => void log.push(`unreserve ${pod.metadata.name} ${node}`),
    preBind: (_s, pod, node) => (
      log.push(`preBind ${pod.metadata.name} ${node}`),
      Promise.resolve(o.preBind)
    ),
  };
  const binder: BindPlugin = {
    name: 'Binder',
    bind: (_s, pod, node) => (log.push(`bind ${pod.metadata.name} ${node}`), Promise.resolve(undefined)),
  };
  const registry = new Registry()
    .register(prioritySort.NAME, prioritySort.create)
    .register('Volumes', () => volumes)
    .register('Binder', () => binder);
  const fwk = Framework.fromProfile(
    makeProfile([{ name: prioritySort.NAME }, { name: 'Volumes' }, { name: 'Binder' }]),
    registry,
  );
  const cache = new SchedulerCache();
  cache.addNode(makeNode('n1'));
  const queue = new PriorityQueue({ less: fwk.queueSortLess(), clock: new FakeClock() });
  const deps: SchedulerLoopDeps = {
    queue,
    cache,
    frameworks: new Map([[fwk.profileName, fwk]]),
    podScheduler: new PodScheduler({ percentageOfNodesToScore: 0 }),
    onScheduled: (pod) => log.push(`scheduled ${pod.metadata.name}`),
    onFailure: (pod, reason, message) => log.push(`${reason} ${pod.metadata.name}: ${message}`),
  };
  return { deps, cache, queue, log };
}

async function once(deps: SchedulerLoopDeps): Promise<void> {
  const bindings = new Set<Promise<void>>();
  expect(await scheduleOne(deps, undefined, bindings)).toBe(true);
  await Promise.all([...bindings]);
}

describe('Reserve and PreBind in the scheduling loop', () => {
  it('reserves after the cycle and pre-binds before binding', async () => {
    const s = setup({});
    s.queue.add(makePod('a'));
    await once(s.deps);
    expect(s.log).toEqual(['reserve a n1', 'preBind a n1', 'bind a n1', 'scheduled a']);
  });

  it('unreserves, forgets the pod and reports a failed PreBind without binding', async () => {
    const s = setup({ preBind: Status.fromError(new Error('binding volumes: context deadline exceeded')) });
    const pod = makePod('a');
    s.queue.add(pod);
    await once(s.deps);
    expect(s.log).toEqual([
      'reserve a n1',
      'preBind a n1',
      'unreserve a n1',
      'SchedulerError a: running PreBind plugin "Volumes": binding volumes: context deadline exceeded',
    ]);
    expect(s.cache.isAssumed(pod)).toBe(false);
  });

  it('unreserves and forgets the pod when Reserve fails', async () => {
    const s = setup({ reserve: Status.fromError(new Error('no room')) });
    const pod = makePod('a');
    s.queue.add(pod);
    await once(s.deps);
    expect(s.log).toEqual([
      'reserve a n1',
      'unreserve a n1',
      'SchedulerError a: running Reserve plugin "Volumes": no room',
    ]);
    expect(s.cache.isAssumed(pod)).toBe(false);
  });
});
