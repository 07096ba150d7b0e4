import { describe, expect, it } from 'vitest';
import { SchedulerCache } from '../cache/cache.js';
import { Code } from '../framework/status.js';
import { makeNode, makePod } from '../framework/testing/fixtures.js';
import type { Node, Pod } from '../framework/types.js';
import { defaultExtender } from '../options/extender-config.js';
import { defaultSchedulerConfiguration } from '../options/index.js';
import { FakeClock } from '../queue/clock.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { buildFrameworks } from '../runtime/scheduler.js';
import { PodScheduler, type ScheduleOutcome } from '../scheduling/schedule-one.js';
import { scheduleOne } from '../scheduling/scheduler-loop.js';
import { defaultFramework } from '../scheduling/testing/default-framework.js';
import {
  EXTENDER_NAME,
  extenderNodeScore,
  withExtenderIgnoredResources,
  type Extenders,
} from './extenders.js';
import { useExtenders } from './testing/extender-fixtures.js';
import { ExtenderServer, sentNodeNames } from './testing/extender-server.js';

/** Extender servers and Extenders as a configuration file would write them, closed after each test. */
const { server, extenders } = useExtenders();

function cacheWith(...nodes: Node[]): SchedulerCache {
  const cache = new SchedulerCache();
  for (const n of nodes) cache.addNode(n);
  return cache;
}

const three = () => cacheWith(makeNode('a'), makeNode('b'), makeNode('c'));

function schedule(ext: Extenders, cache: SchedulerCache, pod: Pod = makePod('p')): Promise<ScheduleOutcome> {
  return new PodScheduler({ percentageOfNodesToScore: 0, random: () => 0.5, extenders: ext }).schedule(
    defaultFramework(),
    cache.snapshot(),
    pod,
  );
}

const host = (o: ScheduleOutcome) => (o.ok ? o.result.suggestedHost : `failed: ${o.message}`);

/** A port nothing listens on: a server started and stopped again. */
async function deadUrl(): Promise<string> {
  const s = await ExtenderServer.start();
  await s.stop();
  return s.url;
}

describe('extender score scaling', () => {
  it.each([
    [10, 1, 100],
    [5, 2, 100],
    [3, 1, 30],
    [0, 7, 0],
    [7, 3, 210],
  ])('score %d × weight %d → %d (MaxNodeScore / MaxExtenderPriority = 10)', (score, weight, want) => {
    expect(extenderNodeScore(score, weight)).toBe(want);
  });
});

describe('filter', () => {
  it('sends the pod and full nodes, keeps what the extender kept and counts its reasons', async () => {
    const s = (await server()).on('filter', () => ({
      Nodes: { items: [{ metadata: { name: 'b' } }] },
      FailedNodes: { a: 'no gpu', c: 'no gpu' },
    }));
    const out = await schedule(extenders({ urlPrefix: s.url, filterVerb: 'filter' }), three());
    expect(host(out)).toBe('b');
    const [call] = s.callsTo('filter');
    expect((call?.body['Pod'] as Pod).metadata.name).toBe('p');
    expect(call?.body['NodeNames']).toBeNull();
    expect(sentNodeNames(call?.body ?? {}).sort()).toEqual(['a', 'b', 'c']);
    expect(out.ok && out.result).toMatchObject({ evaluatedNodes: 3, feasibleNodes: 1 });
  });

  it('makes the pod unschedulable with the extender reasons counted like plugin reasons', async () => {
    const s = (await server()).on('filter', () => ({
      Nodes: { items: [] },
      FailedNodes: { a: 'node(s) lack a gpu', b: 'node(s) lack a gpu', c: 'overridden' },
      FailedAndUnresolvableNodes: { c: 'node(s) are reserved' },
    }));
    const out = await schedule(extenders({ urlPrefix: s.url, filterVerb: 'filter' }), three());
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.status.code).toBe(Code.Unschedulable);
    expect(out.message).toBe('0/3 nodes are available: 1 node(s) are reserved, 2 node(s) lack a gpu.');
    expect([...out.unschedulablePlugins]).toEqual([EXTENDER_NAME]);
  });

  it('sends only node names to a node-caching extender and refuses a name it was not sent', async () => {
    const s = (await server()).on('filter', (body) => ({ NodeNames: [...sentNodeNames(body), 'zzz'] }));
    const out = await schedule(
      extenders({ urlPrefix: s.url, filterVerb: 'filter', nodeCacheCapable: true }),
      three(),
    );
    expect(s.callsTo('filter')[0]?.body['Nodes']).toBeNull();
    expect(out).toMatchObject({
      ok: false,
      message: `extender "${s.url}" claims a filtered node "zzz" which is not found in the input node list`,
    });
    expect(!out.ok && out.status.code).toBe(Code.Error);
  });

  it('reads the answer case-insensitively, as Go does', async () => {
    const s = (await server()).on('filter', () => ({ nodenames: ['c'] }));
    const out = await schedule(
      extenders({ urlPrefix: s.url, filterVerb: 'filter', nodeCacheCapable: true }),
      three(),
    );
    expect(host(out)).toBe('c');
  });

  it('passes the survivors of one extender to the next', async () => {
    const first = (await server()).on('filter', () => ({ NodeNames: ['a', 'b'] }));
    const second = (await server()).on('filter', (body) => ({ NodeNames: sentNodeNames(body).slice(1) }));
    const out = await schedule(
      extenders(
        { urlPrefix: first.url, filterVerb: 'filter', nodeCacheCapable: true },
        { urlPrefix: second.url, filterVerb: 'filter', nodeCacheCapable: true },
      ),
      three(),
    );
    expect(sentNodeNames(second.callsTo('filter')[0]?.body ?? {})).toEqual(['a', 'b']);
    expect(host(out)).toBe('b');
  });

  it.each([
    ['the Error field', () => ({ Error: 'extender is confused' }), 'extender is confused'],
    [
      'a non-200 reply',
      () => ({ status: 500, body: 'boom' }),
      (url: string) => `failed filter with extender at URL ${url}/filter, code 500`,
    ],
  ])('fails the cycle with %s', async (_name, answer, want) => {
    const s = (await server()).on('filter', answer);
    const out = await schedule(extenders({ urlPrefix: `${s.url}/`, filterVerb: 'filter' }), three());
    expect(out).toMatchObject({ ok: false, message: typeof want === 'string' ? want : want(s.url) });
  });

  it('fails the cycle with the connection error of a non-ignorable extender that is down', async () => {
    const url = await deadUrl();
    const out = await schedule(extenders({ urlPrefix: url, filterVerb: 'filter' }), three());
    const port = new URL(url).port;
    expect(out).toMatchObject({
      ok: false,
      message: `Post "${url}/filter": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
    expect(!out.ok && out.status.code).toBe(Code.Error);
  });

  it('skips an ignorable extender that is down, or that errs', async () => {
    const erring = (await server()).on('filter', () => ({ Error: 'nope' }));
    const good = (await server()).on('filter', () => ({ NodeNames: ['a'] }));
    const out = await schedule(
      extenders(
        { urlPrefix: await deadUrl(), filterVerb: 'filter', ignorable: true },
        { urlPrefix: erring.url, filterVerb: 'filter', ignorable: true, nodeCacheCapable: true },
        { urlPrefix: good.url, filterVerb: 'filter', nodeCacheCapable: true },
      ),
      three(),
    );
    expect(host(out)).toBe('a');
    expect(erring.callsTo('filter')).toHaveLength(1);
  });

  it('calls ignorable extenders after the others', async () => {
    const order: string[] = [];
    const a = (await server()).on(
      'filter',
      (body) => (order.push('ignorable'), { NodeNames: sentNodeNames(body) }),
    );
    const b = (await server()).on(
      'filter',
      (body) => (order.push('required'), { NodeNames: sentNodeNames(body) }),
    );
    await schedule(
      extenders(
        { urlPrefix: a.url, filterVerb: 'filter', ignorable: true, nodeCacheCapable: true },
        { urlPrefix: b.url, filterVerb: 'filter', nodeCacheCapable: true },
      ),
      three(),
    );
    expect(order).toEqual(['required', 'ignorable']);
  });

  it('gives up after httpTimeout', async () => {
    const s = (await server()).on(
      'filter',
      () => new Promise((resolve) => setTimeout(() => resolve({}), 5_000)),
    );
    const out = await schedule(
      extenders({ urlPrefix: s.url, filterVerb: 'filter', httpTimeout: '100ms' }),
      three(),
    );
    expect(out).toMatchObject({
      ok: false,
      message: `Post "${s.url}/filter": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    });
  });
});

describe('prioritize', () => {
  it('adds the weighted extender score to the plugin scores', async () => {
    const s = (await server()).on('prioritize', (body) =>
      sentNodeNames(body).map((n) => ({ Host: n, Score: n === 'c' ? 10 : 0 })),
    );
    const out = await schedule(
      extenders({ urlPrefix: s.url, prioritizeVerb: 'prioritize', weight: 1 }),
      three(),
    );
    expect(host(out)).toBe('c');
    expect(s.callsTo('prioritize')).toHaveLength(1);
  });

  it('ignores a failing prioritizer, even a non-ignorable one', async () => {
    const s = (await server()).on('prioritize', () => ({ status: 500 }));
    const out = await schedule(
      extenders({ urlPrefix: s.url, prioritizeVerb: 'prioritize', weight: 5 }),
      three(),
    );
    expect(out.ok).toBe(true);
  });

  it('is not called when one node is left', async () => {
    const s = (await server())
      .on('filter', () => ({ NodeNames: ['b'] }))
      .on('prioritize', () => [{ Host: 'b', Score: 10 }]);
    const out = await schedule(
      extenders({
        urlPrefix: s.url,
        filterVerb: 'filter',
        prioritizeVerb: 'prioritize',
        weight: 1,
        nodeCacheCapable: true,
      }),
      three(),
    );
    expect(host(out)).toBe('b');
    expect(s.callsTo('prioritize')).toHaveLength(0);
  });
});

describe('managedResources: interest', () => {
  const gpuExtender = async () => {
    const s = (await server()).on('filter', (body) => ({ NodeNames: sentNodeNames(body).slice(0, 1) }));
    return {
      s,
      ext: extenders({
        urlPrefix: s.url,
        filterVerb: 'filter',
        nodeCacheCapable: true,
        managedResources: [{ name: 'example.com/gpu' }],
      }),
    };
  };
  const nodes = () =>
    cacheWith(...['a', 'b'].map((n) => makeNode(n, { allocatable: { 'example.com/gpu': '4' } })));

  it('skips pods that do not ask for a managed resource', async () => {
    const { s, ext } = await gpuExtender();
    expect((await schedule(ext, nodes(), makePod('plain'))).ok).toBe(true);
    expect(s.calls).toHaveLength(0);
  });

  it.each([
    ['a container request', { requests: { 'example.com/gpu': '1' } }],
    [
      'a container limit',
      {
        containers: [
          {
            name: 'c',
            resources: { limits: { 'example.com/gpu': '1' }, requests: { 'example.com/gpu': '1' } },
          },
        ],
      },
    ],
    [
      'an init container request',
      { initContainers: [{ name: 'i', resources: { requests: { 'example.com/gpu': '1' } } }] },
    ],
  ])('calls it for %s', async (_name, opts) => {
    const { s, ext } = await gpuExtender();
    expect(host(await schedule(ext, nodes(), makePod('gpu', opts)))).toBe('a');
    expect(s.callsTo('filter')).toHaveLength(1);
  });

  it('hands resources ignoredByScheduler to NodeResourcesFit as ignored resources', async () => {
    const cfg = defaultExtender({
      urlPrefix: 'http://127.0.0.1:1',
      managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }],
    });
    const profiles = defaultSchedulerConfiguration().profiles;
    const binder = () => ({ name: 'DefaultBinder', bind: () => Promise.resolve(undefined) });
    const pod = makePod('gpu', { requests: { 'example.com/gpu': '1' } });
    const run = (fwkProfiles: typeof profiles) => {
      const fwk = [...buildFrameworks({ profiles: fwkProfiles }, binder).values()][0];
      if (!fwk) throw new Error('no framework');
      return new PodScheduler({ percentageOfNodesToScore: 0 }).schedulePod(
        fwk,
        cacheWith(makeNode('a')).snapshot(),
        pod,
      );
    };
    expect(run(profiles)).toMatchObject({
      ok: false,
      message: '0/1 nodes are available: 1 Insufficient example.com/gpu.',
    });
    const adjusted = withExtenderIgnoredResources(profiles, [cfg]);
    expect(adjusted[0]?.pluginConfig).toContainEqual({
      name: 'NodeResourcesFit',
      args: { ignoredResources: ['example.com/gpu'] },
    });
    expect(host(run(adjusted))).toBe('a');
  });
});

describe('bind', () => {
  async function loop(ext: Extenders) {
    const bound: string[] = [];
    const fwk = defaultFramework((_s, pod, node) => {
      bound.push(`${pod.metadata.name}→${node}`);
      return Promise.resolve(undefined);
    });
    const cache = cacheWith(makeNode('a'));
    const queue = new PriorityQueue({ less: fwk.queueSortLess(), clock: new FakeClock() });
    const failures: string[] = [];
    const deps = {
      queue,
      cache,
      frameworks: new Map([[fwk.profileName, fwk]]),
      podScheduler: new PodScheduler({ percentageOfNodesToScore: 0, extenders: ext }),
      extenders: ext,
      onFailure: (_p: Pod, reason: string, message: string) => failures.push(`${reason}: ${message}`),
    };
    queue.add(makePod('p', { uid: 'uid-1' }));
    const bindings = new Set<Promise<void>>();
    await scheduleOne(deps, undefined, bindings);
    await Promise.all([...bindings]);
    return { bound, failures };
  }

  it('lets the binding extender bind instead of DefaultBinder', async () => {
    const s = (await server()).on('bind', () => ({}));
    const r = await loop(extenders({ urlPrefix: s.url, bindVerb: 'bind' }));
    expect(s.callsTo('bind')[0]?.body).toEqual({
      PodName: 'p',
      PodNamespace: 'default',
      PodUID: 'uid-1',
      Node: 'a',
    });
    expect(r).toEqual({ bound: [], failures: [] });
  });

  it('reports the Error the extender answers as a binding failure', async () => {
    const s = (await server()).on('bind', () => ({ Error: 'pod is not welcome' }));
    const r = await loop(extenders({ urlPrefix: s.url, bindVerb: 'bind' }));
    expect(r).toEqual({ bound: [], failures: ['SchedulerError: Binding rejected: pod is not welcome'] });
  });

  it('falls back to DefaultBinder when an ignorable binder fails', async () => {
    const r = await loop(extenders({ urlPrefix: await deadUrl(), bindVerb: 'bind', ignorable: true }));
    expect(r).toEqual({ bound: ['p→a'], failures: [] });
  });
});

describe('preempt (for DefaultPreemption)', () => {
  const victimA = makePod('va', { uid: 'va', nodeName: 'a' });
  const victimB = makePod('vb', { uid: 'vb', nodeName: 'b' });
  const cache = () => {
    const c = cacheWith(makeNode('a'), makeNode('b'));
    c.addPod(victimA);
    c.addPod(victimB);
    return c;
  };
  const candidates = new Map([
    ['a', { pods: [victimA], numPDBViolations: 0 }],
    ['b', { pods: [victimB], numPDBViolations: 1 }],
  ]);

  it('sends victims by UID to a node-caching extender and resolves its choice', async () => {
    const s = (await server()).on('preempt', () => ({
      NodeNameToMetaVictims: { b: { Pods: [{ UID: 'vb' }], NumPDBViolations: 1 } },
    }));
    const ext = extenders({ urlPrefix: s.url, preemptVerb: 'preempt', nodeCacheCapable: true });
    const out = await ext.preempt(makePod('p'), candidates, cache().snapshot());
    expect([...out]).toEqual([['b', { pods: [victimB], numPDBViolations: 1 }]]);
    expect(s.callsTo('preempt')[0]?.body).toMatchObject({
      NodeNameToVictims: null,
      NodeNameToMetaVictims: { a: { Pods: [{ UID: 'va' }], NumPDBViolations: 0 } },
    });
  });

  it('sends whole pods to other extenders', async () => {
    const s = (await server()).on('preempt', () => ({ NodeNameToMetaVictims: {} }));
    const ext = extenders({ urlPrefix: s.url, preemptVerb: 'preempt' });
    expect((await ext.preempt(makePod('p'), candidates, cache().snapshot())).size).toBe(0);
    const body = s.callsTo('preempt')[0]?.body as { NodeNameToVictims: Record<string, { Pods: Pod[] }> };
    expect(body.NodeNameToVictims['a']?.Pods[0]?.metadata.uid).toBe('va');
  });

  it.each([
    [
      'a pod the node does not hold',
      { NodeNameToMetaVictims: { a: { Pods: [{ UID: 'vb' }] } } },
      (url: string) =>
        `extender: ${url} claims to preempt pod (UID: vb) on node: a, but the pod is not found on that node`,
    ],
    [
      'a node without victims',
      { NodeNameToMetaVictims: { a: { Pods: [] } } },
      () => 'expected at least one victim pod on node "a"',
    ],
  ])('refuses %s from a non-ignorable extender', async (_name, answer, want) => {
    const s = (await server()).on('preempt', () => answer);
    const ext = extenders({ urlPrefix: s.url, preemptVerb: 'preempt' });
    await expect(ext.preempt(makePod('p'), candidates, cache().snapshot())).rejects.toThrow(want(s.url));
  });

  it('skips an ignorable extender that is down', async () => {
    const ext = extenders({ urlPrefix: await deadUrl(), preemptVerb: 'preempt', ignorable: true });
    expect(await ext.preempt(makePod('p'), candidates, cache().snapshot())).toEqual(candidates);
  });
});
