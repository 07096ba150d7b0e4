import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state.js';
import { filterAll, makeSnapshot } from '../../framework/testing/cluster.js';
import { makeNode } from '../../framework/testing/fixtures.js';
import {
  FakeVolumes,
  makeClaim,
  makeClass,
  makeVolume,
  podWithClaims,
} from '../../framework/testing/volumes.js';
import type { Pod } from '../../framework/types.js';
import { ANN_SELECTED_NODE, VolumeBinder } from './binder.js';
import { ERR_REASON_UNBOUND_IMMEDIATE, VolumeBinding, create } from './volume-binding.js';

const BIND = "node(s) didn't find available persistent volumes to bind";
const AFFINITY = 'node(s) had volume node affinity conflict';
const MISSING_PV = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
const no = (...reasons: string[]) => ({ code: 'UnschedulableAndUnresolvable', reasons });
const nodes = [makeNode('n1'), makeNode('n2'), makeNode('n3')];
const classes = [
  makeClass('local', 'WaitForFirstConsumer'),
  makeClass('dynamic', 'WaitForFirstConsumer', 'csi.example.com'),
  makeClass('zonal', 'WaitForFirstConsumer', 'csi.example.com', {
    allowedTopologies: [{ matchLabelExpressions: [{ key: 'kubernetes.io/hostname', values: ['n2'] }] }],
  }),
  makeClass('now', 'Immediate'),
];

function plugin(volumes: FakeVolumes, apply = true, timeoutMs = 5_000): VolumeBinding {
  return new VolumeBinding(new VolumeBinder(volumes, volumes.writer(apply), timeoutMs, 5));
}

function filter(volumes: FakeVolumes, pod: Pod) {
  return filterAll(plugin(volumes), pod, makeSnapshot(nodes));
}

describe('VolumeBinding PreFilter and Filter', () => {
  it('skips pods without claims', () => {
    expect(filter(new FakeVolumes(), podWithClaims('p', []))).toEqual({
      n1: undefined,
      n2: undefined,
      n3: undefined,
    });
  });

  it('rejects a pod with an unbound Immediate claim everywhere', () => {
    const v = new FakeVolumes({ pvcs: [makeClaim('c', { storageClassName: 'now' })], classes });
    const want = no(ERR_REASON_UNBOUND_IMMEDIATE);
    expect(filter(v, podWithClaims('p', ['c']))).toEqual({ n1: want, n2: want, n3: want });
  });

  it('treats a claim whose class does not exist as Immediate', () => {
    const v = new FakeVolumes({ pvcs: [makeClaim('c', { storageClassName: 'gone' })], classes });
    expect(filter(v, podWithClaims('p', ['c']))['n1']).toEqual(no(ERR_REASON_UNBOUND_IMMEDIATE));
  });

  it.each([
    ['a missing claim', [], 'persistentvolumeclaim "c" not found'],
    [
      'a claim being deleted',
      [
        {
          ...makeClaim('c'),
          metadata: { ...makeClaim('c').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' },
        },
      ],
      'persistentvolumeclaim "c" is being deleted',
    ],
  ])('rejects %s', (_name, pvcs, reason) => {
    const v = new FakeVolumes({ pvcs, classes });
    expect(filter(v, podWithClaims('p', ['c']))['n2']).toEqual(no(reason));
  });

  it("keeps a pod to the nodes of its bound claim's volume", () => {
    const c = makeClaim('c', { volumeName: 'pv', bound: true });
    const v = new FakeVolumes({ pvs: [makeVolume('pv', { claim: c, nodes: ['n2'] })], pvcs: [c], classes });
    expect(filter(v, podWithClaims('p', ['c']))).toEqual({
      n1: no(AFFINITY),
      n2: undefined,
      n3: no(AFFINITY),
    });
  });

  it('rejects a claim bound to a volume that does not exist', () => {
    const c = makeClaim('c', { volumeName: 'pv', bound: true });
    const v = new FakeVolumes({ pvcs: [c], classes });
    expect(filter(v, podWithClaims('p', ['c']))['n1']).toEqual(no(MISSING_PV));
  });

  it('finds a local volume for a WaitForFirstConsumer claim only on its node', () => {
    const v = new FakeVolumes({
      pvs: [makeVolume('pv-2', { storageClassName: 'local', nodes: ['n2'] })],
      pvcs: [makeClaim('c', { storageClassName: 'local' })],
      classes,
    });
    expect(filter(v, podWithClaims('p', ['c']))).toEqual({ n1: no(BIND), n2: undefined, n3: no(BIND) });
  });

  it.each([
    ['too small', { capacity: '512Mi' }],
    ['another class', { storageClassName: 'other' }],
    ['missing an access mode', { accessModes: ['ReadOnlyMany'] }],
    ['not matching the selector', { labels: { tier: 'slow' } }],
    ['released', { phase: 'Released' }],
  ])('does not use a volume %s', (_name, o) => {
    const v = new FakeVolumes({
      pvs: [makeVolume('pv', { storageClassName: 'local', nodes: ['n1'], labels: { tier: 'fast' }, ...o })],
      pvcs: [makeClaim('c', { storageClassName: 'local', selector: { matchLabels: { tier: 'fast' } } })],
      classes,
    });
    expect(filter(v, podWithClaims('p', ['c']))['n1']).toEqual(no(BIND));
  });

  it('accepts a volume whose phase no PV controller set yet', () => {
    const v = new FakeVolumes({
      pvs: [makeVolume('pv', { storageClassName: 'local', nodes: ['n1'], phase: 'Pending' })],
      pvcs: [makeClaim('c', { storageClassName: 'local' })],
      classes,
    });
    expect(filter(v, podWithClaims('p', ['c']))['n1']).toBeUndefined();
  });

  it('lets a class with a provisioner provision where its topology allows', () => {
    const v = new FakeVolumes({
      pvcs: [makeClaim('d', { storageClassName: 'dynamic' }), makeClaim('z', { storageClassName: 'zonal' })],
      classes,
    });
    expect(filter(v, podWithClaims('p', ['d']))).toEqual({ n1: undefined, n2: undefined, n3: undefined });
    expect(filter(v, podWithClaims('p', ['z']))).toEqual({ n1: no(BIND), n2: undefined, n3: no(BIND) });
  });

  it('checks the capacity a CSI driver publishes when it opts in', () => {
    const capacity = (name: string, node: string, o: object) => ({
      metadata: { name, namespace: 'kube-system' },
      storageClassName: 'dynamic',
      nodeTopology: { matchLabels: { 'kubernetes.io/hostname': node } },
      ...o,
    });
    const v = new FakeVolumes({
      pvcs: [makeClaim('d', { storageClassName: 'dynamic' })],
      classes,
      drivers: [{ metadata: { name: 'csi.example.com' }, spec: { storageCapacity: true } }],
      capacities: [
        capacity('n1', 'n1', { capacity: '10Gi' }),
        capacity('n2', 'n2', { capacity: '10Gi', maximumVolumeSize: '512Mi' }),
      ],
    });
    const space = no('node(s) did not have enough free storage');
    expect(filter(v, podWithClaims('p', ['d']))).toEqual({ n1: undefined, n2: space, n3: space });
    v.drivers.clear();
    expect(filter(v, podWithClaims('p', ['d']))['n3']).toBeUndefined();
  });

  it('holds a claim with a selected node to that node', () => {
    const v = new FakeVolumes({
      pvcs: [makeClaim('d', { storageClassName: 'dynamic', annotations: { [ANN_SELECTED_NODE]: 'n3' } })],
      classes,
    });
    expect(filter(v, podWithClaims('p', ['d']))).toEqual({ n1: no(BIND), n2: no(BIND), n3: undefined });
  });

  it('needs a distinct volume for each claim', () => {
    const v = new FakeVolumes({
      pvs: [makeVolume('pv-a', { storageClassName: 'local', nodes: ['n1', 'n2'] })],
      pvcs: [makeClaim('a', { storageClassName: 'local' }), makeClaim('b', { storageClassName: 'local' })],
      classes,
    });
    expect(filter(v, podWithClaims('p', ['a', 'b']))['n1']).toEqual(no(BIND));
  });
});

/** One scheduling cycle on `node` up to Reserve, as the framework runs it; returns the state. */
function reserveOn(pl: VolumeBinding, pod: Pod, node: string): CycleState {
  const state = new CycleState();
  state.snapshot = makeSnapshot(nodes);
  expect(pl.preFilter(state, pod)).toBeUndefined();
  const info = state.snapshot.get(node);
  if (!info) throw new Error(`no node ${node}`);
  expect(pl.filter(state, pod, info)).toBeUndefined();
  expect(pl.reserve(state, pod, node)).toBeUndefined();
  return state;
}

describe('VolumeBinding Reserve and PreBind', () => {
  it('binds the smallest fitting volume and the claim, then passes', async () => {
    const v = new FakeVolumes({
      pvs: [
        makeVolume('big', { storageClassName: 'local', nodes: ['n1'], capacity: '10Gi' }),
        makeVolume('small', { storageClassName: 'local', nodes: ['n1'], capacity: '2Gi' }),
      ],
      pvcs: [makeClaim('c', { storageClassName: 'local' })],
      classes,
    });
    const pl = plugin(v);
    const pod = podWithClaims('p', ['c']);
    const state = reserveOn(pl, pod, 'n1');
    expect(await pl.preBind(state, pod, 'n1')).toBeUndefined();
    expect(v.pvs.get('small')?.spec?.claimRef).toMatchObject({
      name: 'c',
      namespace: 'default',
      uid: 'uid-pvc-c',
    });
    expect(v.pvs.get('small')?.metadata.annotations).toEqual({
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    expect(v.pvs.get('small')?.status?.phase).toBe('Bound');
    expect(v.pvs.get('big')?.spec?.claimRef).toBeUndefined();
    const claim = v.pvcs.get('default/c');
    expect(claim?.spec?.volumeName).toBe('small');
    expect(claim?.metadata.annotations?.['pv.kubernetes.io/bind-completed']).toBe('yes');
    expect(claim?.status).toMatchObject({ phase: 'Bound', capacity: { storage: '2Gi' } });
  });

  it('completes the binding when it may not write the phases', async () => {
    const v = new FakeVolumes({
      pvs: [makeVolume('pv', { storageClassName: 'local', nodes: ['n1'] })],
      pvcs: [makeClaim('c', { storageClassName: 'local' })],
      classes,
    });
    const pl = new VolumeBinding(new VolumeBinder(v, v.writer(true, true), 5_000, 5));
    const pod = podWithClaims('p', ['c']);
    expect(await pl.preBind(reserveOn(pl, pod, 'n1'), pod, 'n1')).toBeUndefined();
    expect(v.pvcs.get('default/c')?.spec?.volumeName).toBe('pv');
    expect(v.pvcs.get('default/c')?.status?.phase).toBe('Pending');
  });

  it('does not hand an assumed volume to the next pod', () => {
    const v = new FakeVolumes({
      pvs: [makeVolume('pv', { storageClassName: 'local', nodes: ['n1'] })],
      pvcs: [makeClaim('a', { storageClassName: 'local' }), makeClaim('b', { storageClassName: 'local' })],
      classes,
    });
    const pl = plugin(v);
    const first = reserveOn(pl, podWithClaims('p1', ['a']), 'n1');
    const second = podWithClaims('p2', ['b']);
    expect(filterAll(pl, second, makeSnapshot(nodes))['n1']).toEqual(no(BIND));
    pl.unreserve(first, podWithClaims('p1', ['a']), 'n1');
    expect(filterAll(pl, second, makeSnapshot(nodes))['n1']).toBeUndefined();
  });

  it('selects the node for a claim to provision and waits for it to be bound', async () => {
    const v = new FakeVolumes({ pvcs: [makeClaim('d', { storageClassName: 'dynamic' })], classes });
    const pl = plugin(v, true, 50);
    const pod = podWithClaims('p', ['d']);
    const state = reserveOn(pl, pod, 'n2');
    const s = await pl.preBind(state, pod, 'n2');
    expect(v.pvcs.get('default/d')?.metadata.annotations?.[ANN_SELECTED_NODE]).toBe('n2');
    // Nothing provisions here, so the wait ends in the bind timeout.
    expect(s?.code).toBe('Error');
    expect(s?.message()).toBe('binding volumes: context deadline exceeded');
  });

  it('passes a pod whose claims are all bound without writing', async () => {
    const c = makeClaim('c', { volumeName: 'pv', bound: true });
    const v = new FakeVolumes({ pvs: [makeVolume('pv', { claim: c })], pvcs: [c], classes });
    const pl = plugin(v);
    const pod = podWithClaims('p', ['c']);
    expect(await pl.preBind(reserveOn(pl, pod, 'n1'), pod, 'n1')).toBeUndefined();
    expect(v.writes).toEqual([]);
  });

  it('reports a failed write as an error', async () => {
    const v = new FakeVolumes({
      pvs: [makeVolume('pv', { storageClassName: 'local', nodes: ['n1'] })],
      pvcs: [makeClaim('c', { storageClassName: 'local' })],
      classes,
    });
    const pl = plugin(v);
    const pod = podWithClaims('p', ['c']);
    const state = reserveOn(pl, pod, 'n1');
    v.pvs.delete('pv');
    const s = await pl.preBind(state, pod, 'n1');
    expect(s?.code).toBe('Error');
    expect(s?.message()).toBe('persistentvolumes "pv" not found');
  });
});

describe('VolumeBinding args', () => {
  it('defaults the bind timeout to 600 s', () => {
    const pl = create({}, { profileName: 'p' }) as VolumeBinding;
    expect(pl.binder.bindTimeoutMs).toBe(600_000);
    expect(
      (create({ bindTimeoutSeconds: 5 }, { profileName: 'p' }) as VolumeBinding).binder.bindTimeoutMs,
    ).toBe(5000);
  });

  it('refuses a negative timeout', () => {
    expect(() => create({ bindTimeoutSeconds: -1 }, { profileName: 'p' })).toThrow(
      'args.bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value',
    );
  });
});
