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
});
