import type { DaemonProcess } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, eventually } from './cluster.js';

// Volume scheduling through the built apiserver and scheduler: storage classes, local volumes
// and claims go in through the API; the scheduler binds volume and claim, then the pod.
let cluster: Cluster;
let scheduler: DaemonProcess | undefined;
const NS = 'vol';

interface Obj {
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: {
    nodeName?: string;
    volumeName?: string;
    claimRef?: { name?: string; namespace?: string; uid?: string };
  };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

async function call(method: string, path: string, body?: unknown): Promise<Obj> {
  const r = await cluster.api.request(method, path, body === undefined ? {} : { body });
  if (r.status !== 201 && r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.json as Obj;
}

const storageClass = (name: string, mode: string, provisioner: string) =>
  call('POST', '/apis/storage.k8s.io/v1/storageclasses', {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    volumeBindingMode: mode,
  });

const localVolume = (name: string, node: string, capacity: string) =>
  call('POST', '/api/v1/persistentvolumes', {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: capacity },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'local-wait',
      local: { path: `/mnt/disks/${name}` },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] },
          ],
        },
      },
    },
  });

const claim = (name: string, storageClassName: string) =>
  call('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName, resources: { requests: { storage: '1Gi' } } },
  });

const podWithClaim = (name: string, claimName: string) =>
  call('POST', `/api/v1/namespaces/${NS}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      containers: [{ name: 'app', image: 'registry.example/app:1' }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
    },
  });

beforeAll(async () => {
  cluster = await Cluster.start();
  await cluster.createNamespace(NS);
  await cluster.createNode('vol-1', { cpu: '4' });
  await cluster.createNode('vol-2', { cpu: '4' });
  await storageClass('local-wait', 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner');
  await storageClass('immediate', 'Immediate', 'example.com/nothing');
  // Only the volume on vol-2 is big enough for the claims' 1Gi.
  await localVolume('pv-small', 'vol-1', '512Mi');
  await localVolume('pv-fits', 'vol-2', '2Gi');
  scheduler = cluster.scheduler(['--leader-elect=false']);
  await scheduler.waitFor(/"Starting scheduling"/);
});
afterAll(async () => {
  await scheduler?.stop();
  await cluster?.stop();
});

describe('volume scheduling (built processes)', () => {
  it('binds a WaitForFirstConsumer claim to the local volume that fits and the pod to its node', async () => {
    await claim('data', 'local-wait');
    await podWithClaim('uses-data', 'data');
    const pod = await eventually(
      async () => {
        const p = await call('GET', `/api/v1/namespaces/${NS}/pods/uses-data`);
        return p.spec?.nodeName ? p : undefined;
      },
      30_000,
      'the pod to be bound',
    );
    expect(pod.spec?.nodeName).toBe('vol-2');
    const pvc = await call('GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims/data`);
    expect(pvc.spec?.volumeName).toBe('pv-fits');
    expect(pvc.status?.phase).toBe('Bound');
    expect(pvc.metadata.annotations?.['pv.kubernetes.io/bind-completed']).toBe('yes');
    const pv = await call('GET', '/api/v1/persistentvolumes/pv-fits');
    expect(pv.spec?.claimRef).toMatchObject({ name: 'data', namespace: NS });
    expect(pv.status?.phase).toBe('Bound');
    const small = await call('GET', '/api/v1/persistentvolumes/pv-small');
    expect(small.spec?.claimRef).toBeUndefined();
  });

  it('leaves a pod whose Immediate claim nothing binds Pending, with upstream message', async () => {
    await claim('waits', 'immediate');
    await podWithClaim('uses-waits', 'waits');
    // An UnschedulableAndUnresolvable PreFilter rejection: kube's preemption says it cannot help.
    const message =
      '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: ' +
      '0/2 nodes are available: 2 Preemption is not helpful for scheduling..';
    const failed = await eventually(
      async () =>
        (await cluster.events(NS)).find(
          (e) => e.reason === 'FailedScheduling' && e.regarding.name === 'uses-waits',
        ),
      30_000,
      'FailedScheduling for uses-waits',
    );
    expect(failed.note).toBe(message);
    const pod = await eventually(async () => {
      const p = await call('GET', `/api/v1/namespaces/${NS}/pods/uses-waits`);
      return p.status?.conditions?.some((c) => c.type === 'PodScheduled') ? p : undefined;
    });
    expect(pod.spec?.nodeName).toBeUndefined();
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message,
    });
  });

  it('retries a pod waiting for its claim once the claim is created', async () => {
    await podWithClaim('early', 'late-claim');
    await eventually(
      async () =>
        (await cluster.events(NS)).find(
          (e) => e.reason === 'FailedScheduling' && e.regarding.name === 'early',
        ),
      30_000,
      'FailedScheduling for early',
    );
    await localVolume('pv-late', 'vol-1', '1Gi');
    await claim('late-claim', 'local-wait');
    const pod = await eventually(
      async () => {
        const p = await call('GET', `/api/v1/namespaces/${NS}/pods/early`);
        return p.spec?.nodeName ? p : undefined;
      },
      30_000,
      'the early pod to be bound',
    );
    expect(pod.spec?.nodeName).toBe('vol-1');
  });
});
