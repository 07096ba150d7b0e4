import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from '../src/control-plane.js';
import { httpsJson } from '../src/https-json.js';

// Volume binding as `keel up` runs it: the scheduler as system:kube-scheduler under RBAC, whose
// bootstrap roles let it patch volumes and claims but not their status.
let cp: ControlPlane;

interface Obj {
  metadata: { annotations?: Record<string, string> };
  spec?: { nodeName?: string; volumeName?: string; claimRef?: { name?: string } };
  status?: { phase?: string };
}

async function api(method: string, path: string, body?: unknown): Promise<Obj> {
  const r = await httpsJson(cp.url + path, {
    method,
    ca: cp.ca,
    token: cp.token,
    ...(body === undefined ? {} : { body }),
  });
  if (r.status !== 200 && r.status !== 201)
    throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Obj;
}

beforeAll(async () => {
  cp = await startControlPlane({ nodes: 2 });
}, 60_000);
afterAll(async () => {
  await cp?.stop();
});

describe('volume binding under RBAC', () => {
  it('binds a WaitForFirstConsumer claim and its pod; the phases stay as the scheduler may not write them', async () => {
    const node = cp.nodes[1] ?? '';
    await api('POST', '/apis/storage.k8s.io/v1/storageclasses', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'local' },
      provisioner: 'kubernetes.io/no-provisioner',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    await api('POST', '/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'local-pv' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'local',
        local: { path: '/mnt/disks/a' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] },
            ],
          },
        },
      },
    });
    await api('POST', '/api/v1/namespaces/default/persistentvolumeclaims', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'data' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'local',
        resources: { requests: { storage: '1Gi' } },
      },
    });
    await api('POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'uses-data' },
      spec: {
        containers: [{ name: 'app', image: 'registry.example/app:1' }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
      },
    });
    const deadline = Date.now() + 30_000;
    let pod = await api('GET', '/api/v1/namespaces/default/pods/uses-data');
    while (!pod.spec?.nodeName && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      pod = await api('GET', '/api/v1/namespaces/default/pods/uses-data');
    }
    expect(pod.spec?.nodeName).toBe(node);
    const pvc = await api('GET', '/api/v1/namespaces/default/persistentvolumeclaims/data');
    expect(pvc.spec?.volumeName).toBe('local-pv');
    expect(pvc.metadata.annotations?.['pv.kubernetes.io/bind-completed']).toBe('yes');
    expect(pvc.status?.phase).toBe('Pending');
    const pv = await api('GET', '/api/v1/persistentvolumes/local-pv');
    expect(pv.spec?.claimRef?.name).toBe('data');
  });
});
