import { describe, expect, it } from 'vitest';
import { CycleState } from './cycle-state.js';
import { NodeInfo, newPodInfo } from './node-info.js';
import { makeNode, makePod } from './testing/fixtures.js';
import { NodeUnschedulable } from '../plugins/node-unschedulable/node-unschedulable.js';
import { TaintToleration } from '../plugins/taint-toleration/taint-toleration.js';

describe('NodeInfo', () => {
  it('keeps running totals as pods come and go', () => {
    const info = new NodeInfo('n1', makeNode('n1', { cpu: '2' }));
    const a = makePod('a', { requests: { cpu: '500m', memory: '1Gi' }, hostPorts: [{ hostPort: 80 }] });
    const b = makePod('b', { containers: [{ name: 'c' }] });
    info.addPod(newPodInfo(a));
    info.addPod(newPodInfo(b));
    expect(info.requested).toMatchObject({ milliCPU: 500, memory: 1024 ** 3, pods: 2 });
    expect(info.nonZeroRequested).toEqual({ milliCPU: 600, memory: 1024 ** 3 + 200 * 1024 ** 2 });
    expect(info.usedPorts.size).toBe(1);

    expect(info.removePod('uid-a')).toBe(true);
    expect(info.removePod('uid-a')).toBe(false);
    expect(info.requested).toMatchObject({ milliCPU: 0, memory: 0, pods: 1 });
    expect(info.nonZeroRequested).toEqual({ milliCPU: 100, memory: 200 * 1024 ** 2 });
    expect(info.usedPorts.size).toBe(0);
  });

  it('replaces a pod added twice instead of counting it twice', () => {
    const info = new NodeInfo('n1');
    info.addPod(newPodInfo(makePod('a', { requests: { cpu: '1' } })));
    info.addPod(newPodInfo(makePod('a', { requests: { cpu: '2' } })));
    expect(info.requested).toMatchObject({ milliCPU: 2000, pods: 1 });
  });

  it('reads allocatable from the node and forgets it when the node goes', () => {
    const info = new NodeInfo('n1', makeNode('n1', { cpu: '3', pods: '7' }));
    expect(info.allocatable).toMatchObject({ milliCPU: 3000, pods: 7 });
    const g = info.generation;
    info.removeNode();
    expect(info.node).toBeUndefined();
    expect(info.allocatable.milliCPU).toBe(0);
    expect(info.generation).toBeGreaterThan(g);
  });

  it('follows the node through updates, copies and removal for the cordon and taint filters', () => {
    const cordon = new NodeUnschedulable();
    const taints = new TaintToleration();
    const pod = makePod('p');
    const rejects = (info: NodeInfo) => [
      cordon.filter(undefined, pod, info)?.isRejected() ?? false,
      taints.filter(new CycleState(), pod, info)?.isRejected() ?? false,
    ];
    const info = new NodeInfo('n1', makeNode('n1'));
    expect(rejects(info)).toEqual([false, false]);
    info.setNode(makeNode('n1', { unschedulable: true, taints: [{ key: 'k', effect: 'NoSchedule' }] }));
    expect(rejects(info)).toEqual([true, true]);
    expect(rejects(info.clone())).toEqual([true, true]);
    const scratch = new NodeInfo('other', makeNode('other'));
    scratch.copyFrom(info);
    expect(rejects(scratch)).toEqual([true, true]);
    info.setNode(makeNode('n1'));
    expect(rejects(info)).toEqual([false, false]);
    info.setNode(makeNode('n1', { unschedulable: true, taints: [{ key: 'k', effect: 'NoExecute' }] }));
    info.removeNode();
    expect(rejects(info)).toEqual([false, false]);
  });

  it('clones with the same node, allocatable and pods, and the copy changes alone', () => {
    const node = makeNode('n1', { cpu: '4', pods: '10' });
    const info = new NodeInfo('n1', node);
    info.addPod(newPodInfo(makePod('a', { requests: { cpu: '1' } })));
    const copy = info.clone();
    expect(copy.node).toBe(node);
    expect(copy.allocatable).toMatchObject({ milliCPU: 4000, pods: 10 });
    expect(copy.requested).toMatchObject({ milliCPU: 1000, pods: 1 });
    copy.removePod('uid-a');
    copy.addPod(newPodInfo(makePod('b', { requests: { cpu: '3' } })));
    expect(copy.requested.milliCPU).toBe(3000);
    expect([...info.pods.keys()]).toEqual(['uid-a']);
    expect(info.requested.milliCPU).toBe(1000);
    // The node changing later is seen by the original only (setNode replaces, never mutates).
    info.setNode(makeNode('n1', { cpu: '8', pods: '10' }));
    expect(info.allocatable.milliCPU).toBe(8000);
    expect(copy.allocatable.milliCPU).toBe(4000);
  });

  it('copyFrom makes a used copy into another node, as clone would, with a new generation', () => {
    const a = new NodeInfo('a', makeNode('a', { cpu: '4' }));
    a.addPod(newPodInfo(makePod('x', { requests: { cpu: '1' }, hostPorts: [{ hostPort: 80 }] })));
    const b = new NodeInfo('b', makeNode('b', { cpu: '8' }));
    b.addPod(newPodInfo(makePod('y', { requests: { cpu: '2', memory: '1Gi' } })));
    b.addPod(newPodInfo(makePod('z', { containers: [{ name: 'c' }] })));
    const scratch = a.clone();
    scratch.addPod(newPodInfo(makePod('extra', { requests: { cpu: '1' }, hostPorts: [{ hostPort: 81 }] })));
    const g = scratch.generation;
    scratch.copyFrom(b);
    const fresh = b.clone();
    expect(scratch.name).toBe('b');
    expect(scratch.node).toBe(b.node);
    expect(scratch.allocatable).toBe(b.allocatable);
    expect([...scratch.pods.keys()]).toEqual(['uid-y', 'uid-z']);
    expect(scratch.requested).toEqual(fresh.requested);
    expect(scratch.nonZeroRequested).toEqual(fresh.nonZeroRequested);
    expect(scratch.usedPorts.size).toBe(0);
    expect(scratch.generation).toBeGreaterThan(g);
    // The source is untouched, and a node without pods still moves the generation on.
    expect([...b.pods.keys()]).toEqual(['uid-y', 'uid-z']);
    const g2 = scratch.generation;
    scratch.copyFrom(new NodeInfo('empty'));
    expect([scratch.name, scratch.pods.size, scratch.requested.milliCPU]).toEqual(['empty', 0, 0]);
    expect(scratch.generation).toBeGreaterThan(g2);
  });

  it('copyFrom with a filter copies only the pods it keeps, as copying all and removing the rest', () => {
    const b = new NodeInfo('b', makeNode('b', { cpu: '8' }));
    b.addPod(
      newPodInfo(makePod('y', { requests: { cpu: '2', memory: '1Gi' }, hostPorts: [{ hostPort: 80 }] })),
    );
    b.addPod(newPodInfo(makePod('z', { requests: { cpu: '1' } })));
    const scratch = new NodeInfo('');
    scratch.copyFrom(b, (p) => p.key !== 'uid-y');
    const removed = b.clone();
    removed.removePod('uid-y');
    expect([...scratch.pods.keys()]).toEqual(['uid-z']);
    expect(scratch.requested).toEqual(removed.requested);
    expect(scratch.nonZeroRequested).toEqual(removed.nonZeroRequested);
    expect(scratch.usedPorts.size).toBe(0);
    expect(b.pods.size).toBe(2);
  });
});
