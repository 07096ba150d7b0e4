import { describe, expect, it } from 'vitest';
import { Nominator } from '../scheduling/nominator.js';
import { CycleState, stateKey, type CloneableState } from './cycle-state.js';
import { Framework } from './framework.js';
import type { Plugin } from './interface.js';
import { newPodInfo, type NodeInfo } from './node-info.js';
import { Registry } from './registry.js';
import { Code, Status, type MaybeStatus } from './status.js';
import { makeNode, makeNodeInfo, makePod, makeProfile } from './testing/fixtures.js';

/** PreFilter state counting the pods AddPod/RemovePod reported; Filter rejects while it is > 0. */
class Count implements CloneableState {
  constructor(public n = 0) {}
  clone(): Count {
    return new Count(this.n);
  }
}
const key = stateKey<Count>('Count');

function frameworkWith(methods: Record<string, unknown>, nominator?: Nominator): Framework {
  const plugin: Plugin & Record<string, unknown> = {
    name: 'P',
    preFilter: (state: CycleState) => state.write(key, new Count()),
    filter: (state: CycleState) =>
      (state.read(key)?.n ?? 0) > 0 ? Status.unschedulable('counted') : undefined,
    ...methods,
  };
  const r = new Registry();
  r.register('Sort', () => ({ name: 'Sort', less: () => false }));
  r.register('P', () => plugin);
  return Framework.fromProfile(makeProfile([{ name: 'Sort' }, { name: 'P' }]), r, undefined, {
    ...(nominator ? { nominator } : {}),
  });
}

const pod = makePod('p', { priority: 100 });
const node = (): NodeInfo => makeNodeInfo(makeNode('n1'));

describe('PreFilter extensions', () => {
  const addPod = (state: CycleState): MaybeStatus => {
    const c = state.read(key);
    if (c) c.n++;
    return undefined;
  };

  it('nominated pods of equal or higher priority reach AddPod in a cloned state', () => {
    const nominator = new Nominator();
    const fwk = frameworkWith({ addPod }, nominator);
    const state = new CycleState();
    fwk.runPreFilterPlugins(state, pod);
    nominator.addNominatedPod(makePod('low', { priority: 10 }), 'n1');
    expect(fwk.runFilterPluginsWithNominatedPods(state, pod, node())).toBeUndefined();
    nominator.addNominatedPod(makePod('equal', { priority: 100 }), 'n1');
    expect(fwk.runFilterPluginsWithNominatedPods(state, pod, node())?.message()).toBe('counted');
    expect(state.read(key)?.n).toBe(0);
  });

  it('RemovePod and AddPod change only the state they are given', () => {
    const removePod = (state: CycleState): MaybeStatus => {
      const c = state.read(key);
      if (c) c.n--;
      return undefined;
    };
    const fwk = frameworkWith({ addPod, removePod });
    const state = new CycleState();
    fwk.runPreFilterPlugins(state, pod);
    const copy = state.clone();
    const other = newPodInfo(makePod('o'));
    fwk.runPreFilterExtensionAddPod(copy, pod, other, node());
    fwk.runPreFilterExtensionAddPod(copy, pod, other, node());
    fwk.runPreFilterExtensionRemovePod(copy, pod, other, node());
    expect([state.read(key)?.n, copy.read(key)?.n]).toEqual([0, 1]);
  });

  it('a failing extension is an Error naming the plugin, also for nominated pods', () => {
    const nominator = new Nominator();
    const fwk = frameworkWith({ addPod: () => Status.of(Code.Error, 'boom') }, nominator);
    const state = new CycleState();
    fwk.runPreFilterPlugins(state, pod);
    const s = fwk.runPreFilterExtensionAddPod(state, pod, newPodInfo(makePod('o')), node());
    expect([s?.code, s?.plugin, s?.message()]).toEqual([
      Code.Error,
      'P',
      'running AddPod on PreFilter plugin "P": boom',
    ]);
    nominator.addNominatedPod(makePod('high', { priority: 200 }), 'n1');
    expect(fwk.runFilterPluginsWithNominatedPods(state, pod, node())?.code).toBe(Code.Error);
  });

  it('is not called for a plugin whose PreFilter returned Skip', () => {
    const calls: string[] = [];
    const fwk = frameworkWith({
      preFilter: () => Status.skip(),
      addPod: () => (calls.push('add'), Status.of(Code.Error, 'boom')),
    });
    const state = new CycleState();
    fwk.runPreFilterPlugins(state, pod);
    expect(fwk.runPreFilterExtensionAddPod(state, pod, newPodInfo(makePod('o')), node())).toBeUndefined();
    expect(calls).toEqual([]);
  });

  describe('without an extension running this cycle', () => {
    /**
     * A framework whose PreFilter plugin with extensions skips, and whose other plugin's filter
     * records the node it sees and the state it is given.
     */
    function recording(nominator: Nominator) {
      const seen: { pods: string[]; state: CycleState }[] = [];
      const r = new Registry();
      r.register('Sort', () => ({ name: 'Sort', less: () => false }));
      r.register('P', () => ({
        name: 'P',
        preFilter: () => Status.skip(),
        addPod: () => Status.of(Code.Error, 'must not run'),
        filter: () => undefined,
      }));
      r.register('F', () => ({
        name: 'F',
        filter: (state: CycleState, _pod: unknown, n: NodeInfo) => {
          seen.push({ pods: [...n.pods.keys()].sort(), state });
          return n.pods.size > 1 ? Status.unschedulable('full') : undefined;
        },
      }));
      const fwk = Framework.fromProfile(
        makeProfile([{ name: 'Sort' }, { name: 'P' }, { name: 'F' }]),
        r,
        undefined,
        { nominator },
      );
      return { fwk, seen };
    }

    it('counts the nominated pods on a node copy, with the cycle state itself', () => {
      const nominator = new Nominator();
      const { fwk, seen } = recording(nominator);
      const state = new CycleState();
      fwk.runPreFilterPlugins(state, pod);
      const n = makeNodeInfo(makeNode('n1'), makePod('bound'));
      nominator.addNominatedPod(makePod('high', { priority: 200 }), 'n1');
      expect(fwk.runFilterPluginsWithNominatedPods(state, pod, n)?.message()).toBe('full');
      expect(seen.map((x) => x.pods)).toEqual([['uid-bound', 'uid-high']]);
      expect(seen[0]?.state).toBe(state);
      expect([...n.pods.keys()]).toEqual(['uid-bound']);
    });

    it('sees every change of the node and of its nominations across cycles', () => {
      const nominator = new Nominator();
      const { fwk, seen } = recording(nominator);
      const state = new CycleState();
      fwk.runPreFilterPlugins(state, pod);
      const n = makeNodeInfo(makeNode('n1'));
      const filtered = () => {
        seen.length = 0;
        fwk.runFilterPluginsWithNominatedPods(state, pod, n);
        return seen[0]?.pods;
      };
      nominator.addNominatedPod(makePod('a', { priority: 200 }), 'n1');
      expect(filtered()).toEqual(['uid-a']);
      expect(filtered()).toEqual(['uid-a']);
      nominator.addNominatedPod(makePod('b', { priority: 100 }), 'n1');
      expect(filtered()).toEqual(['uid-a', 'uid-b']);
      n.addPod(newPodInfo(makePod('bound')));
      expect(filtered()).toEqual(['uid-a', 'uid-b', 'uid-bound']);
      nominator.delete(makePod('a'));
      expect(filtered()).toEqual(['uid-b', 'uid-bound']);
      n.removePod('uid-bound');
      expect(filtered()).toEqual(['uid-b']);
      // Lower priority, and the pod itself, are left out; the kept copy is not reused for them.
      nominator.addNominatedPod(makePod('low', { priority: 10 }), 'n1');
      expect(filtered()).toEqual(['uid-b']);
      nominator.addNominatedPod(pod, 'n1');
      expect(filtered()).toEqual(['uid-b']);
      // Every other pod here counts, but the pod itself is nominated here too.
      nominator.delete(makePod('low'));
      expect(filtered()).toEqual(['uid-b']);
      // Nominated elsewhere, it no longer hides anything here.
      nominator.addNominatedPod(pod, 'n2');
      nominator.addNominatedPod(makePod('c', { priority: 300 }), 'n1');
      expect(filtered()).toEqual(['uid-b', 'uid-c']);
      nominator.delete(makePod('c'));
      nominator.delete(pod);
      expect(filtered()).toEqual(['uid-b']);
      nominator.delete(makePod('b'));
      expect(filtered()).toEqual([]);
    });

    it("a NodeInfo holding a forgotten node's cell asks the nominator again", () => {
      const nominator = new Nominator();
      const { fwk, seen } = recording(nominator);
      const state = new CycleState();
      fwk.runPreFilterPlugins(state, pod);
      const n = makeNodeInfo(makeNode('n1'));
      nominator.addNominatedPod(makePod('elsewhere'), 'n2');
      fwk.runFilterPluginsWithNominatedPods(state, pod, n);
      nominator.forgetNode('n1');
      nominator.addNominatedPod(makePod('high', { priority: 200 }), 'n1');
      seen.length = 0;
      fwk.runFilterPluginsWithNominatedPods(state, pod, n);
      expect(seen[0]?.pods).toEqual(['uid-high']);
    });

    it('on a scratch copy adds the nominated pods in place and takes them off again', () => {
      const nominator = new Nominator();
      const { fwk, seen } = recording(nominator);
      const state = new CycleState();
      fwk.runPreFilterPlugins(state, pod);
      const n = makeNodeInfo(makeNode('n1'), makePod('bound'));
      const g = n.generation;
      nominator.addNominatedPod(makePod('high', { priority: 200 }), 'n1');
      nominator.addNominatedPod(makePod('low', { priority: 10 }), 'n1');
      nominator.addNominatedPod(pod, 'n1');
      expect(fwk.runFilterPluginsWithNominatedPods(state, pod, n, true)?.message()).toBe('full');
      expect(seen.map((x) => x.pods)).toEqual([['uid-bound', 'uid-high']]);
      expect(seen[0]?.state).toBe(state);
      expect([...n.pods.keys()]).toEqual(['uid-bound']);
      expect(n.requested.pods).toBe(1);
      expect(n.generation).toBeGreaterThan(g);
      // Fitting with them, the node is filtered again without them, as kube does.
      seen.length = 0;
      n.removePod('uid-bound');
      expect(fwk.runFilterPluginsWithNominatedPods(state, pod, n, true)).toBeUndefined();
      expect(seen.map((x) => x.pods)).toEqual([['uid-high'], []]);
      expect(n.pods.size).toBe(0);
    });

    it('on a scratch copy already holding a nominated pod, filters a copy instead', () => {
      const nominator = new Nominator();
      const { fwk, seen } = recording(nominator);
      const state = new CycleState();
      fwk.runPreFilterPlugins(state, pod);
      const high = makePod('high', { priority: 200 });
      const n = makeNodeInfo(makeNode('n1'), makePod('bound'), high);
      nominator.addNominatedPod(high, 'n1');
      expect(fwk.runFilterPluginsWithNominatedPods(state, pod, n, true)?.message()).toBe('full');
      expect(seen.map((x) => x.pods)).toEqual([['uid-bound', 'uid-high']]);
      expect([...n.pods.keys()]).toEqual(['uid-bound', 'uid-high']);
    });
  });
});
