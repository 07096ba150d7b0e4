/**
 * DefaultPreemption with extenders that have a preempt verb (real HTTP extenders on 127.0.0.1),
 * and the preemption metrics it records.
 */
import { describe, expect, it } from 'vitest';
import { useExtenders } from '../../extender/testing/extender-fixtures.js';
import type { DurationSeries, FrameworkMetricsSink } from '../../framework/metrics-recorder.js';
import type { PreemptionMetrics } from '../../framework/preemption-handle.js';
import { makeNode, makePod, type PodOptions } from '../../framework/testing/fixtures.js';
import type { Pod } from '../../framework/types.js';
import { preemptionCluster } from './testing.js';

/** Extender servers and Extenders as a configuration file would write them, closed after each test. */
const { server, extenders } = useExtenders();

const running = (name: string, node: string, cpu: string, priority: number, o: PodOptions = {}) =>
  makePod(name, { nodeName: node, requests: { cpu }, priority, ...o });
const incoming = (cpu: string) => makePod('p', { requests: { cpu }, priority: 100 });
const names = (pods: readonly Pod[] | undefined) => (pods ?? []).map((p) => p.metadata.name);
const nodes = () => [makeNode('n1', { cpu: '4' }), makeNode('n2', { cpu: '4' })];

/** Victims by node as an extender answers (UIDs), from node → pod names. */
const meta = (byNode: Record<string, string[]>) => ({
  NodeNameToMetaVictims: Object.fromEntries(
    Object.entries(byNode).map(([n, pods]) => [
      n,
      { Pods: pods.map((p) => ({ UID: `uid-${p}` })), NumPDBViolations: 0 },
    ]),
  ),
});

describe('DefaultPreemption asks extenders with a preempt verb', () => {
  // Without extenders n2 wins: its victim has the lower priority.
  const pods = () => [running('a', 'n1', '4', 50), running('b', 'n2', '4', 10)];

  it('picks n2 on its own', async () => {
    const c = preemptionCluster(nodes(), pods());
    expect(await c.attempt(incoming('2'))).toMatchObject({ code: 'Success', nominated: 'n2' });
  });

  it('an extender that removes a candidate node changes the choice', async () => {
    const s = (await server()).on('preempt', () => meta({ n1: ['a'] }));
    const ext = extenders({ urlPrefix: s.url, preemptVerb: 'preempt', nodeCacheCapable: true });
    const c = preemptionCluster(nodes(), pods(), { extenders: ext });
    expect(await c.attempt(incoming('2'))).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(names(c.preemption.plans[0]?.victims)).toEqual(['a']);
    // It was offered both candidates, victims by UID.
    expect(s.callsTo('preempt')[0]?.body['NodeNameToMetaVictims']).toEqual(
      meta({ n1: ['a'], n2: ['b'] }).NodeNameToMetaVictims,
    );
  });

  it('an extender that narrows the victims changes the choice', async () => {
    // Both nodes need both their pods gone (3 cpu), n2's of lower priority in sum; the extender
    // lets n1 keep one of its two, so n1 costs less.
    const four = [
      running('a1', 'n1', '2', 10),
      running('a2', 'n1', '2', 10),
      running('b1', 'n2', '2', 10),
      running('b2', 'n2', '2', 3),
    ];
    expect(await preemptionCluster(nodes(), four).attempt(incoming('3'))).toMatchObject({ nominated: 'n2' });
    const s = (await server()).on('preempt', () => meta({ n1: ['a2'], n2: ['b1', 'b2'] }));
    const c = preemptionCluster(nodes(), four, {
      extenders: extenders({ urlPrefix: s.url, preemptVerb: 'preempt', nodeCacheCapable: true }),
    });
    expect(await c.attempt(incoming('3'))).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(names(c.preemption.plans[0]?.victims)).toEqual(['a2']);
  });

  it('no candidate left means no preemption', async () => {
    const s = (await server()).on('preempt', () => ({ NodeNameToMetaVictims: {} }));
    const c = preemptionCluster(nodes(), pods(), {
      extenders: extenders({ urlPrefix: s.url, preemptVerb: 'preempt' }),
    });
    const r = await c.attempt(incoming('2'));
    expect(r).toMatchObject({ code: 'Unschedulable' });
    expect(r.message).toContain('preemption: no candidate node for preemption');
    expect(c.preemption.plans).toEqual([]);
  });

  it('a failing extender fails PostFilter; an ignorable one is skipped', async () => {
    const s = (await server()).on('preempt', () => ({ status: 500, body: 'boom' }));
    const failing = preemptionCluster(nodes(), pods(), {
      extenders: extenders({ urlPrefix: s.url, preemptVerb: 'preempt' }),
    });
    expect(await failing.attempt(incoming('2'))).toMatchObject({ code: 'Error' });
    expect(failing.preemption.plans).toEqual([]);
    const ignorable = preemptionCluster(nodes(), pods(), {
      extenders: extenders({ urlPrefix: s.url, preemptVerb: 'preempt', ignorable: true }),
    });
    expect(await ignorable.attempt(incoming('2'))).toMatchObject({ code: 'Success', nominated: 'n2' });
  });

  it('asks only extenders with a preempt verb that are interested in the pod', async () => {
    const s = (await server()).on('preempt', () => meta({ n1: ['a'] }));
    const c = preemptionCluster(nodes(), pods(), {
      extenders: extenders(
        { urlPrefix: s.url, filterVerb: 'filter' },
        { urlPrefix: s.url, preemptVerb: 'preempt', managedResources: [{ name: 'example.com/gpu' }] },
      ),
    });
    expect(await c.attempt(incoming('2'))).toMatchObject({ code: 'Success', nominated: 'n2' });
    expect(s.callsTo('preempt')).toEqual([]);
  });
});

describe('preemption metrics', () => {
  class Recorded implements PreemptionMetrics {
    attempts = 0;
    readonly victimCounts: number[] = [];
    attempt(): void {
      this.attempts++;
    }
    victims(count: number): void {
      this.victimCounts.push(count);
    }
  }

  it('counts each DefaultPreemption PostFilter run and the chosen victims, and times PostFilter', async () => {
    const m = new Recorded();
    const points: string[] = [];
    const sink: FrameworkMetricsSink = {
      extensionPoint: (point, status, profile): DurationSeries => ({
        observe: () => points.push(`${point}/${status}/${profile}`),
      }),
      plugin: () => ({ observe: () => undefined }),
    };
    const c = preemptionCluster(
      nodes(),
      [running('a', 'n1', '4', 10), running('b', 'n1', '0', 10), running('top', 'n2', '4', 500)],
      { metrics: m },
    );
    c.fwk.recordMetrics(sink);
    expect(await c.attempt(incoming('2'))).toMatchObject({ code: 'Success', nominated: 'n1' });
    expect(m).toMatchObject({ attempts: 1, victimCounts: [1] });
    // Not helpful: still an attempt, no victims observed.
    const never = { ...incoming('2'), spec: { ...incoming('2').spec, preemptionPolicy: 'Never' } };
    expect(await c.attempt(makePod('q', { requests: { cpu: '8' }, priority: 100 }))).toMatchObject({
      code: 'Unschedulable',
    });
    expect(await c.attempt(never)).toMatchObject({ code: 'Unschedulable' });
    expect(m).toMatchObject({ attempts: 3, victimCounts: [1] });
    expect(points.filter((p) => p.startsWith('PostFilter/'))).toEqual([
      'PostFilter/Success/default-scheduler',
      'PostFilter/Unschedulable/default-scheduler',
      'PostFilter/Unschedulable/default-scheduler',
    ]);
  });
});
