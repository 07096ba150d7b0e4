import { describe, expect, it } from 'vitest';
import { makeNode } from '../../framework/testing/fixtures.js';
import { filterAll, makeSnapshot } from '../../framework/testing/cluster.js';
import {
  FakeVolumes,
  makeClaim,
  makeClass,
  makeCSINode,
  makeVolume,
  podWithClaims,
} from '../../framework/testing/volumes.js';
import type { Pod } from '../../framework/types.js';
import { csiAttachLimitKey, ERR_REASON_MAX_VOLUME_COUNT, NodeVolumeLimits } from './node-volume-limits.js';

const exceeded = { code: 'Unschedulable', reasons: [ERR_REASON_MAX_VOLUME_COUNT] };
const DRIVER = 'ebs.csi.aws.com';
const on = (pod: Pod, nodeName: string): Pod => ({ ...pod, spec: { ...pod.spec, nodeName } });

/** Claims c0..c4 bound to CSI volumes with handles h0..h4 (c4 shares h0); `fresh` is unbound. */
function cluster() {
  const claims = [0, 1, 2, 3, 4].map((i) => makeClaim(`c${i}`, { volumeName: `pv${i}`, bound: true }));
  const pvs = claims.map((c, i) =>
    makeVolume(`pv${i}`, { claim: c, csi: { driver: DRIVER, volumeHandle: `h${i === 4 ? 0 : i}` } }),
  );
  return new FakeVolumes({
    pvs,
    pvcs: [...claims, makeClaim('fresh', { storageClassName: 'ebs' })],
    classes: [makeClass('ebs', 'WaitForFirstConsumer', DRIVER)],
    csiNodes: [
      makeCSINode('full', { [DRIVER]: 2 }),
      makeCSINode('room', { [DRIVER]: 3 }),
      makeCSINode('nolimit', { [DRIVER]: undefined }),
    ],
  });
}

const nodes = ['full', 'room', 'nolimit', 'nocsinode'].map((n) => makeNode(n));
const existing = nodes.map((n) => on(podWithClaims(`old-${n.metadata.name}`, ['c0', 'c1']), n.metadata.name));

describe('NodeVolumeLimits (CSI)', () => {
  it("counts the pod's new volumes against each driver's allocatable count", () => {
    const got = filterAll(
      new NodeVolumeLimits(cluster()),
      podWithClaims('p', ['c2']),
      makeSnapshot(nodes, existing),
    );
    expect(got).toEqual({ full: exceeded, room: undefined, nolimit: undefined, nocsinode: undefined });
  });

  it('does not count a volume handle already attached to the node', () => {
    const got = filterAll(
      new NodeVolumeLimits(cluster()),
      podWithClaims('p', ['c4', 'c1']),
      makeSnapshot(nodes, existing),
    );
    expect(got).toEqual({ full: undefined, room: undefined, nolimit: undefined, nocsinode: undefined });
  });

  it("counts an unbound claim under its class's provisioner", () => {
    const got = filterAll(
      new NodeVolumeLimits(cluster()),
      podWithClaims('p', ['fresh', 'c2']),
      makeSnapshot(nodes, existing),
    );
    expect(got).toEqual({ full: exceeded, room: exceeded, nolimit: undefined, nocsinode: undefined });
  });

  it("falls back to the node's allocatable attachable-volumes-csi-<driver>", () => {
    const node = makeNode('old-style', { allocatable: { [csiAttachLimitKey(DRIVER)]: '2' } });
    const pods = [on(podWithClaims('old', ['c0', 'c1']), 'old-style')];
    const got = filterAll(
      new NodeVolumeLimits(cluster()),
      podWithClaims('p', ['c2']),
      makeSnapshot([node], pods),
    );
    expect(got).toEqual({ 'old-style': exceeded });
  });

  it('shortens long driver names in the allocatable key as kube does', () => {
    expect(csiAttachLimitKey('ebs.csi.aws.com')).toBe('attachable-volumes-csi-ebs.csi.aws.com');
    const long = csiAttachLimitKey('a-very-long-csi-driver-name.storage.example.com');
    expect(long).toMatch(/^attachable-volumes-csi-a-very-long-csi-driver-[0-9a-f]{16}$/);
  });

  it('rejects a pod whose claim does not exist', () => {
    const got = filterAll(new NodeVolumeLimits(cluster()), podWithClaims('p', ['gone']), makeSnapshot(nodes));
    expect(got['full']).toEqual({
      code: 'UnschedulableAndUnresolvable',
      reasons: ['persistentvolumeclaim "gone" not found'],
    });
  });

  it('skips pods without claims', () => {
    const state = filterAll(
      new NodeVolumeLimits(cluster()),
      podWithClaims('p', []),
      makeSnapshot(nodes, existing),
    );
    expect(Object.values(state).every((s) => s === undefined)).toBe(true);
  });
});
