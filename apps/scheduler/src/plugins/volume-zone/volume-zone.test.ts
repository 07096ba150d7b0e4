import { describe, expect, it } from 'vitest';
import { filterAll, labelledNode, makeSnapshot } from '../../framework/testing/cluster.js';
import {
  FakeVolumes,
  makeClaim,
  makeClass,
  makeVolume,
  podWithClaims,
} from '../../framework/testing/volumes.js';
import { ERR_REASON_CONFLICT, VolumeZone } from './volume-zone.js';

const ZONE = 'topology.kubernetes.io/zone';
const REGION = 'topology.kubernetes.io/region';
const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const conflict = { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_CONFLICT] };
const unresolvable = (reason: string) => ({ code: 'UnschedulableAndUnresolvable', reasons: [reason] });

const nodes = [
  labelledNode('a', { [ZONE]: 'zone-a', [REGION]: 'r1' }),
  labelledNode('b', { [ZONE]: 'zone-b', [REGION]: 'r1' }),
  labelledNode('beta-a', { [BETA_ZONE]: 'zone-a' }),
  labelledNode('plain', {}),
];

function run(pvLabels: Record<string, string>, claim = makeClaim('c', { volumeName: 'pv', bound: true })) {
  const volumes = new FakeVolumes({
    pvs: [makeVolume('pv', { labels: pvLabels, claim })],
    pvcs: [claim],
    classes: [makeClass('wait', 'WaitForFirstConsumer'), makeClass('now', 'Immediate')],
  });
  return filterAll(new VolumeZone(volumes), podWithClaims('p', ['c']), makeSnapshot(nodes));
}

describe('VolumeZone', () => {
  it('keeps a zonal volume to nodes of its zone; unlabelled nodes fit', () => {
    expect(run({ [ZONE]: 'zone-a' })).toEqual({
      a: undefined,
      b: conflict,
      'beta-a': conflict,
      plain: undefined,
    });
  });

  it("matches a volume's beta label against a node's GA label", () => {
    expect(run({ [BETA_ZONE]: 'zone-a' })).toEqual({
      a: undefined,
      b: conflict,
      'beta-a': undefined,
      plain: undefined,
    });
  });

  it('accepts any zone of a multi-zone value', () => {
    expect(run({ [ZONE]: 'zone-a__zone-b' })).toEqual({
      a: undefined,
      b: undefined,
      'beta-a': conflict,
      plain: undefined,
    });
  });

  it('checks regions too', () => {
    expect(run({ [REGION]: 'r2' })).toEqual({
      a: conflict,
      b: conflict,
      'beta-a': conflict,
      plain: undefined,
    });
  });

  it('skips volumes without topology labels', () => {
    expect(run({ other: 'x' })).toEqual({
      a: undefined,
      b: undefined,
      'beta-a': undefined,
      plain: undefined,
    });
  });

  it('skips unbound WaitForFirstConsumer claims', () => {
    const got = run({ [ZONE]: 'zone-a' }, makeClaim('c', { storageClassName: 'wait' }));
    expect(got).toEqual({ a: undefined, b: undefined, 'beta-a': undefined, plain: undefined });
  });

  it.each([
    [
      'an unbound Immediate claim',
      makeClaim('c', { storageClassName: 'now' }),
      'PersistentVolume had no name',
    ],
    [
      'an unbound claim without a class',
      makeClaim('c'),
      'PersistentVolumeClaim had no pv name and storageClass name',
    ],
    [
      'a claim bound to a missing volume',
      makeClaim('c', { volumeName: 'gone', bound: true }),
      'persistentvolume "gone" not found',
    ],
  ])('rejects %s', (_name, claim, reason) => {
    const got = run({ [ZONE]: 'zone-a' }, claim);
    expect(got['a']).toEqual(unresolvable(reason));
  });
});
