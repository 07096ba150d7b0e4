import { describe, expect, it } from 'vitest';
import { makeNode, makePod } from '../../framework/testing/fixtures.js';
import { filterAll, makeSnapshot } from '../../framework/testing/cluster.js';
import { FakeVolumes, makeClaim, podWithClaims, podWithVolumes } from '../../framework/testing/volumes.js';
import type { Pod, Volume } from '../../framework/types.js';
import {
  ERR_REASON_DISK_CONFLICT,
  ERR_REASON_RWOP_CONFLICT,
  VolumeRestrictions,
} from './volume-restrictions.js';

const disk = { code: 'Unschedulable', reasons: [ERR_REASON_DISK_CONFLICT] };
const rwop = { code: 'Unschedulable', reasons: [ERR_REASON_RWOP_CONFLICT] };
const nodes = [makeNode('n1'), makeNode('n2')];
const on = (pod: Pod, nodeName: string): Pod => ({ ...pod, spec: { ...pod.spec, nodeName } });

const gce = (pdName: string, readOnly = false): Volume => ({
  name: 'd',
  gcePersistentDisk: { pdName, readOnly },
});
const ebs = (volumeID: string): Volume => ({ name: 'd', awsElasticBlockStore: { volumeID } });
const iscsi = (iqn: string, readOnly = false): Volume => ({ name: 'd', iscsi: { iqn, readOnly } });
const rbd = (monitors: string[], image: string, pool?: string): Volume => ({
  name: 'd',
  rbd: { monitors, image, ...(pool ? { pool } : {}) },
});

describe('VolumeRestrictions disk conflicts', () => {
  it.each<[string, Volume, Volume, boolean]>([
    ['the same GCE disk read-write', gce('a'), gce('a'), true],
    ['the same GCE disk, both read-only', gce('a', true), gce('a', true), false],
    ['the same GCE disk, one read-only', gce('a', true), gce('a'), true],
    ['another GCE disk', gce('a'), gce('b'), false],
    ['the same EBS volume', ebs('vol-1'), ebs('vol-1'), true],
    ['another EBS volume', ebs('vol-1'), ebs('vol-2'), false],
    ['the same iSCSI IQN', iscsi('iqn.1'), iscsi('iqn.1'), true],
    ['the same iSCSI IQN read-only twice', iscsi('iqn.1', true), iscsi('iqn.1', true), false],
    ['the same RBD image sharing a monitor', rbd(['m1', 'm2'], 'img'), rbd(['m2'], 'img', 'rbd'), true],
    ['the same RBD image in another pool', rbd(['m1'], 'img'), rbd(['m1'], 'img', 'other'), false],
    ['RBD images without a common monitor', rbd(['m1'], 'img'), rbd(['m3'], 'img'), false],
  ])('%s', (_name, existing, wanted, conflict) => {
    const snapshot = makeSnapshot(nodes, [on(podWithVolumes('old', [existing]), 'n1')]);
    const got = filterAll(new VolumeRestrictions(new FakeVolumes()), podWithVolumes('p', [wanted]), snapshot);
    expect(got).toEqual({ n1: conflict ? disk : undefined, n2: undefined });
  });

  it('skips pods without restricted volumes or claims', () => {
    const pl = new VolumeRestrictions(new FakeVolumes());
    const snapshot = makeSnapshot(nodes, [on(podWithVolumes('old', [gce('a')]), 'n1')]);
    expect(filterAll(pl, makePod('p'), snapshot)).toEqual({ n1: undefined, n2: undefined });
  });
});

describe('VolumeRestrictions ReadWriteOncePod', () => {
  const volumes = new FakeVolumes({
    pvcs: [
      makeClaim('once', { accessModes: ['ReadWriteOncePod'] }),
      makeClaim('many', { accessModes: ['ReadWriteMany'] }),
    ],
  });
  const pl = new VolumeRestrictions(volumes);

  it('rejects every node while a scheduled pod uses the claim', () => {
    const snapshot = makeSnapshot(nodes, [on(podWithClaims('old', ['once']), 'n2')]);
    expect(filterAll(pl, podWithClaims('p', ['once']), snapshot)).toEqual({ n1: rwop, n2: rwop });
  });

  it('passes once no pod uses it, and for other access modes', () => {
    const snapshot = makeSnapshot(nodes, [on(podWithClaims('old', ['many']), 'n1')]);
    expect(filterAll(pl, podWithClaims('p', ['once', 'many']), snapshot)).toEqual({
      n1: undefined,
      n2: undefined,
    });
  });

  it('does not count a claim of the same name in another namespace', () => {
    const snapshot = makeSnapshot(nodes, [on(podWithClaims('old', ['once'], { namespace: 'other' }), 'n1')]);
    expect(filterAll(pl, podWithClaims('p', ['once']), snapshot)).toEqual({ n1: undefined, n2: undefined });
  });

  it('reports a missing claim as unresolvable', () => {
    const got = filterAll(pl, podWithClaims('p', ['gone']), makeSnapshot(nodes));
    const want = {
      code: 'UnschedulableAndUnresolvable',
      reasons: ['persistentvolumeclaim "gone" not found'],
    };
    expect(got).toEqual({ n1: want, n2: want });
  });
});
