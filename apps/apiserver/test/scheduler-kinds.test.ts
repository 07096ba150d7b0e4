/**
 * The kinds the reference kube-scheduler's informers list, served as full resources end to end
 * against the built keel-apiserver: discovery, CRUD and watch, the real 422s, status
 * subresources, defaults, server-side tables through kubectl, kubectl apply of a manifest of
 * each, and kube-system beside platform-system for unmodified reference components.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { create, expectStatus, MERGE, newNamespace, type Json } from './support/core.js';
import { openWatch } from './support/http.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/kinds/${name}`, import.meta.url), 'utf8');

const template = (app: string): Json => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});

/** Every list the 1.20+ reference scheduler's informers make (pods and nodes included). */
const SCHEDULER_LISTS = [
  '/api/v1/pods',
  '/api/v1/nodes',
  '/api/v1/namespaces',
  '/api/v1/services',
  '/api/v1/replicationcontrollers',
  '/api/v1/persistentvolumes',
  '/api/v1/persistentvolumeclaims',
  '/apis/apps/v1/replicasets',
  '/apis/apps/v1/statefulsets',
  '/apis/storage.k8s.io/v1/storageclasses',
  '/apis/storage.k8s.io/v1/csinodes',
  // What 1.24+ schedulers' volume binding adds.
  '/apis/storage.k8s.io/v1/csidrivers',
  '/apis/storage.k8s.io/v1/csistoragecapacities',
  '/apis/policy/v1beta1/poddisruptionbudgets',
  '/apis/policy/v1/poddisruptionbudgets',
];

describe('kinds the reference scheduler informs on', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ok = (...args: string[]) => kubectlOk(cfg, args);
  beforeAll(async () => {
    // NamespaceLifecycle on, as in a real server: kube-system must be undeletable.
    server = await TestApiServer.start({ namespaceLifecycle: true });
    await server.ready();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 200 to every list the scheduler makes, and to a watch of each', async () => {
    for (const path of SCHEDULER_LISTS) {
      const r = await server.request('GET', `${path}?limit=500&resourceVersion=0`);
      expect([path, r.status]).toEqual([path, 200]);
      const rv = String(((r.json as Json)['metadata'] as Json)['resourceVersion']);
      const w = await openWatch(server, `${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`);
      expect([path, w.status]).toEqual([path, 200]);
      w.close();
    }
  });

  it('lists them in discovery with upstream short names, categories and subresources', async () => {
    const resources = async (path: string) =>
      new Map(
        ((await expectStatus(server.request('GET', path), 200))['resources'] as Json[]).map((r) => [
          r['name'],
          r,
        ]),
      );
    const core = await resources('/api/v1');
    expect(core.get('replicationcontrollers')).toMatchObject({
      namespaced: true,
      shortNames: ['rc'],
      categories: ['all'],
    });
    expect(core.get('persistentvolumes')).toMatchObject({ namespaced: false, shortNames: ['pv'] });
    expect(core.get('persistentvolumeclaims')).toMatchObject({ namespaced: true, shortNames: ['pvc'] });
    for (const sub of [
      'replicationcontrollers/status',
      'persistentvolumes/status',
      'persistentvolumeclaims/status',
    ])
      expect(core.get(sub)).toMatchObject({ verbs: ['get', 'patch', 'update'] });
    const apps = await resources('/apis/apps/v1');
    expect(apps.get('replicasets')).toMatchObject({
      shortNames: ['rs'],
      categories: ['all'],
      storageVersionHash: 'P1RzHs8/mWQ=',
    });
    expect(apps.get('statefulsets')).toMatchObject({ shortNames: ['sts'], categories: ['all'] });
    expect([...apps.keys()].sort()).toEqual([
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ]);
    const storage = await resources('/apis/storage.k8s.io/v1');
    expect(storage.get('storageclasses')).toMatchObject({ namespaced: false, shortNames: ['sc'] });
    expect(storage.get('csinodes')).toMatchObject({ namespaced: false, storageVersionHash: 'Pe62DkZtjuo=' });
    expect(storage.get('csidrivers')).toMatchObject({
      namespaced: false,
      storageVersionHash: 'Z7aeXSiaYTw=',
    });
    expect(storage.get('csistoragecapacities')).toMatchObject({
      namespaced: true,
      storageVersionHash: 'xeVl+2Ly1kE=',
    });
    const openapi = Object.keys(
      ((await expectStatus(server.request('GET', '/openapi/v3'), 200))['paths'] as Json) ?? {},
    );
    expect(openapi).toEqual(
      expect.arrayContaining([
        'apis/apps/v1',
        'apis/policy/v1',
        'apis/policy/v1beta1',
        'apis/storage.k8s.io/v1',
      ]),
    );
    for (const v of ['v1', 'v1beta1']) {
      const policy = await resources(`/apis/policy/${v}`);
      expect(policy.get('poddisruptionbudgets')).toMatchObject({ namespaced: true, shortNames: ['pdb'] });
      expect(policy.get('poddisruptionbudgets/status')).toMatchObject({ verbs: ['get', 'patch', 'update'] });
    }
    const groups = ((await expectStatus(server.request('GET', '/apis'), 200))['groups'] as Json[]).map(
      (g) => g['name'],
    );
    expect(groups.slice(0, 2)).toEqual(['apps', 'events.k8s.io']);
    expect(groups.indexOf('policy')).toBeLessThan(groups.indexOf('rbac.authorization.k8s.io'));
    expect(groups.indexOf('storage.k8s.io')).toBeLessThan(groups.indexOf('admissionregistration.k8s.io'));
  });

  it('ReplicaSets: defaults, CRUD, watch, status, immutable selector and the real 422s', async () => {
    const ns = await newNamespace(server, 'rs');
    const base = `/apis/apps/v1/namespaces/${ns}/replicasets`;
    const watch = await openWatch(server, `${base}?watch=1`);
    expect(watch.status).toBe(200);
    const body = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: template('web') },
    };
    const created = await create(server, base, body);
    expect(created['spec']).toMatchObject({
      replicas: 1,
      template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' } },
    });
    expect(created['status']).toEqual({ replicas: 0 });
    expect((created['metadata'] as Json)['generation']).toBe(1);
    await watch.waitForEvents(1);
    expect(watch.events[0]).toMatchObject({
      type: 'ADDED',
      object: { kind: 'ReplicaSet', metadata: { name: 'web' } },
    });

    const patched = await expectStatus(
      server.request('PATCH', `${base}/web`, { body: { spec: { replicas: 3 } }, contentType: MERGE }),
      200,
    );
    expect(patched).toMatchObject({ spec: { replicas: 3 }, metadata: { generation: 2 } });
    // Status only through /status, and only the status there.
    const status = await expectStatus(
      server.request('PATCH', `${base}/web/status`, {
        body: { status: { replicas: 3, readyReplicas: 2 }, spec: { replicas: 9 } },
        contentType: MERGE,
      }),
      200,
    );
    expect(status).toMatchObject({ spec: { replicas: 3 }, status: { replicas: 3, readyReplicas: 2 } });
    const badStatus = await server.request('PATCH', `${base}/web/status`, {
      body: { status: { readyReplicas: 5 } },
      contentType: MERGE,
    });
    expect(badStatus.status).toBe(422);
    expect((badStatus.json as Json)['message']).toBe(
      'ReplicaSet.apps "web" is invalid: status.readyReplicas: Invalid value: 5: cannot be greater than status.replicas',
    );

    const selector = await server.request('PATCH', `${base}/web`, {
      body: { spec: { selector: { matchLabels: { app: 'other' } }, template: template('other') } },
      contentType: MERGE,
    });
    expect(selector.status).toBe(422);
    expect((selector.json as Json)['message']).toContain('spec.selector: Invalid value:');
    expect((selector.json as Json)['message']).toContain('field is immutable');

    const mismatch = await server.request('POST', base, {
      body: {
        ...body,
        metadata: { name: 'bad' },
        spec: { selector: { matchLabels: { app: 'x' } }, template: template('y') },
      },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      message:
        'ReplicaSet.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`',
      details: {
        name: 'bad',
        group: 'apps',
        kind: 'ReplicaSet',
        causes: [{ reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels' }],
      },
    });
    const noImage = await server.request('POST', base, {
      body: {
        ...body,
        metadata: { name: 'noimg' },
        spec: {
          ...body.spec,
          replicas: -1,
          template: { ...template('web'), spec: { containers: [{ name: 'app' }] } },
        },
      },
    });
    expect(noImage.status).toBe(422);
    const causes = ((noImage.json as Json)['details'] as { causes: Json[] }).causes.map((c) => c['field']);
    expect(causes).toEqual(['spec.replicas', 'spec.template.spec.containers[0].image']);

    await expectStatus(server.request('DELETE', `${base}/web`), 200);
    await expectStatus(server.request('GET', `${base}/web`), 404);
    await watch.waitForEvents(4);
    expect(watch.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED']);
    watch.close();
  });

  it('StatefulSets and ReplicationControllers: defaults and validation', async () => {
    const ns = await newNamespace(server, 'sts');
    const sts = await create(server, `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') },
    });
    expect(sts['spec']).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    const forbidden = await server.request('PATCH', `/apis/apps/v1/namespaces/${ns}/statefulsets/db`, {
      body: { spec: { serviceName: 'other' } },
      contentType: MERGE,
    });
    expect(forbidden.status).toBe(422);
    expect((forbidden.json as Json)['message']).toContain(
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );

    // An RC's selector and labels default to its template's labels.
    const rc = await create(server, `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'rc' },
      spec: { template: template('rc') },
    });
    expect(rc).toMatchObject({
      metadata: { labels: { app: 'rc' } },
      spec: { replicas: 1, selector: { app: 'rc' } },
    });
    const noTemplate = await server.request('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      body: { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'empty' }, spec: {} },
    });
    expect(noTemplate.status).toBe(422);
    expect((noTemplate.json as Json)['message']).toBe(
      'ReplicationController "empty" is invalid: [spec.selector: Required value, spec.template: Required value]',
    );
  });

  it('volumes, claims, classes, CSINodes and budgets: defaults and the real 422s', async () => {
    const ns = await newNamespace(server, 'pvc');
    const claims = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
    const pvc = await create(server, claims, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    expect(pvc).toMatchObject({ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
    const badClaim = await server.request('POST', claims, {
      body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'bad' }, spec: {} },
    });
    expect((badClaim.json as Json)['message']).toBe(
      'PersistentVolumeClaim "bad" is invalid: [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]',
    );
    const changed = await server.request('PATCH', `${claims}/c`, {
      body: { spec: { accessModes: ['ReadWriteMany'] } },
      contentType: MERGE,
    });
    expect(changed.status).toBe(422);
    expect((changed.json as Json)['message']).toContain('spec: Forbidden: spec is immutable after creation');
    const bound = await expectStatus(
      server.request('PATCH', `${claims}/c/status`, {
        body: { status: { phase: 'Bound', capacity: { storage: '1Gi' } } },
        contentType: MERGE,
      }),
      200,
    );
    expect(bound['status']).toMatchObject({ phase: 'Bound' });

    const pv = await create(server, '/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: `pv-${ns}` },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        nfs: { server: 'nfs', path: '/x' },
      },
    });
    expect(pv).toMatchObject({
      spec: { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    });
    const badPV = await server.request('POST', '/api/v1/persistentvolumes', {
      body: {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: 'bad-pv' },
        spec: { accessModes: ['ReadWriteOnce'] },
      },
    });
    expect((badPV.json as Json)['message']).toBe(
      'PersistentVolume "bad-pv" is invalid: [spec.capacity: Required value, spec: Required value: must specify a volume type]',
    );

    const sc = await create(server, '/apis/storage.k8s.io/v1/storageclasses', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: `sc-${ns}` },
      provisioner: 'example.com/x',
      parameters: { a: 'b' },
    });
    expect(sc).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    const params = await server.request('PATCH', `/apis/storage.k8s.io/v1/storageclasses/sc-${ns}`, {
      body: { parameters: { a: 'c' } },
      contentType: MERGE,
    });
    expect((params.json as Json)['message']).toBe(
      `StorageClass.storage.k8s.io "sc-${ns}" is invalid: parameters: Forbidden: updates to parameters are forbidden.`,
    );
    const noProvisioner = await server.request('POST', '/apis/storage.k8s.io/v1/storageclasses', {
      body: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'none' } },
    });
    expect((noProvisioner.json as Json)['message']).toBe(
      'StorageClass.storage.k8s.io "none" is invalid: provisioner: Required value',
    );

    const csi = await server.request('POST', '/apis/storage.k8s.io/v1/csinodes', {
      body: {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSINode',
        metadata: { name: `n-${ns}` },
        spec: { drivers: [{ name: 'd' }] },
      },
    });
    expect((csi.json as Json)['message']).toBe(
      `CSINode.storage.k8s.io "n-${ns}" is invalid: spec.drivers[0].nodeID: Required value`,
    );

    // A budget written at v1 is read at v1beta1, with the status defaults.
    const pdbs = (v: string) => `/apis/policy/${v}/namespaces/${ns}/poddisruptionbudgets`;
    await create(server, pdbs('v1'), {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'b' },
      spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'x' } } },
    });
    const beta = await expectStatus(server.request('GET', `${pdbs('v1beta1')}/b`), 200);
    expect(beta).toMatchObject({
      apiVersion: 'policy/v1beta1',
      spec: { maxUnavailable: '50%' },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    });
    const both = await server.request('POST', pdbs('v1'), {
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'both' },
        spec: { minAvailable: 1, maxUnavailable: 1 },
      },
    });
    expect(both.status).toBe(422);
    expect((both.json as Json)['message']).toContain('spec: Invalid value:');
    expect((both.json as Json)['message']).toContain('minAvailable and maxUnavailable cannot be both set');
  });

  it('kubectl applies a manifest of each kind and prints them with the upstream columns', async () => {
    const ns = await newNamespace(server, 'apply');
    const applied = await kubectl(cfg, ['apply', '-n', ns, '-f', '-'], { stdin: fixture('all-kinds.yaml') });
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toBe(
      'replicationcontroller/web-rc created\nreplicaset.apps/web-rs created\nstatefulset.apps/db created\n' +
        'persistentvolumeclaim/data created\npoddisruptionbudget.policy/web-pdb created\n' +
        'csistoragecapacity.storage.k8s.io/cap-a created\n',
    );
    const cluster = await kubectl(cfg, ['apply', '-f', '-'], { stdin: fixture('cluster-kinds.yaml') });
    expect(cluster.stderr).toBe('');
    expect(cluster.stdout).toBe(
      'persistentvolume/pv-local created\nstorageclass.storage.k8s.io/fast created\ncsinode.storage.k8s.io/node-a created\n' +
        'csidriver.storage.k8s.io/fast.example.com created\n',
    );
    // A second apply of a changed manifest patches (strategic merge on the pod template).
    const again = await kubectl(cfg, ['apply', '-n', ns, '-f', '-'], {
      stdin: fixture('all-kinds.yaml').replace('replicas: 3', 'replicas: 4'),
    });
    expect(again.stdout).toContain('replicaset.apps/web-rs configured');

    const header = (out: string) =>
      out
        .split('\n')[0]
        ?.trim()
        .split(/\s{2,}/);
    expect(header(await ok('get', 'pvc', '-n', ns))).toEqual([
      'NAME',
      'STATUS',
      'VOLUME',
      'CAPACITY',
      'ACCESS MODES',
      'STORAGECLASS',
      'VOLUMEATTRIBUTESCLASS',
      'AGE',
    ]);
    expect(await ok('get', 'pvc', '-n', ns)).toMatch(/\ndata\s+Pending\s+fast\s+<unset>\s+\d+s\n/);
    expect(header(await ok('get', 'pv', 'pv-local'))).toEqual([
      'NAME',
      'CAPACITY',
      'ACCESS MODES',
      'RECLAIM POLICY',
      'STATUS',
      'CLAIM',
      'STORAGECLASS',
      'VOLUMEATTRIBUTESCLASS',
      'REASON',
      'AGE',
    ]);
    expect(await ok('get', 'pv', 'pv-local')).toMatch(
      /\npv-local\s+5Gi\s+RWO,ROX\s+Retain\s+Pending\s+fast\s+<unset>\s+\d+s\n/,
    );
    expect(await ok('get', 'rs', '-n', ns, '-o', 'wide')).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nweb-rs\s+4\s+0\s+0\s+\d+s\s+app\s+nginx:1\.25\s+app=web-rs\n$/,
    );
    expect(await ok('get', 'sts', '-n', ns)).toMatch(/^NAME\s+READY\s+AGE\ndb\s+0\/1\s+\d+s\n$/);
    expect(await ok('get', 'rc', '-n', ns)).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nweb-rc\s+2\s+0\s+0\s+\d+s\n$/,
    );
    expect(await ok('get', 'sc', 'fast')).toMatch(
      /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE\nfast \(default\)\s+example\.com\/fast\s+Delete\s+Immediate\s+false\s+\d+s\n$/,
    );
    expect(await ok('get', 'pdb', '-n', ns)).toMatch(
      /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nweb-pdb\s+1\s+N\/A\s+0\s+\d+s\n$/,
    );
    expect(await ok('get', 'csidriver', 'fast.example.com')).toMatch(
      /^NAME\s+ATTACHREQUIRED\s+PODINFOONMOUNT\s+STORAGECAPACITY\s+TOKENREQUESTS\s+REQUIRESREPUBLISH\s+MODES\s+AGE\nfast\.example\.com\s+true\s+false\s+true\s+<unset>\s+false\s+Persistent\s+\d+s\n$/,
    );
    expect(await ok('get', 'csistoragecapacities', '-n', ns)).toMatch(
      /^NAME\s+STORAGECLASSNAME\s+CAPACITY\s+AGE\ncap-a\s+fast\s+10Gi\s+\d+s\n$/,
    );
    expect(await ok('get', 'csinode', 'node-a')).toMatch(/^NAME\s+DRIVERS\s+AGE\nnode-a\s+1\s+\d+s\n$/);

    const all = await ok('get', 'pvc,pv,rs,sts,sc,pdb,rc', '-A');
    for (const name of [
      'persistentvolumeclaim/data',
      'persistentvolume/pv-local',
      'replicaset.apps/web-rs',
      'statefulset.apps/db',
      'storageclass.storage.k8s.io/fast',
      'poddisruptionbudget.policy/web-pdb',
      'replicationcontroller/web-rc',
    ])
      expect(all).toContain(name);
    // Category "all" takes in rc, rs and sts.
    const cat = await ok('get', 'all', '-n', ns, '-o', 'name');
    expect(cat.split('\n').filter(Boolean).sort()).toEqual([
      'replicaset.apps/web-rs',
      'replicationcontroller/web-rc',
      'statefulset.apps/db',
    ]);
  });

  it('creates kube-system beside platform-system, undeletable, with the authentication ConfigMap', async () => {
    await expectStatus(server.request('GET', '/api/v1/namespaces/kube-system'), 200);
    const keel = await expectStatus(
      server.request(
        'GET',
        '/api/v1/namespaces/platform-system/configmaps/extension-apiserver-authentication',
      ),
      200,
    );
    const ref = await expectStatus(
      server.request('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication'),
      200,
    );
    expect(ref['data']).toEqual(keel['data']);
    const del = await server.request('DELETE', '/api/v1/namespaces/kube-system');
    expect(del.status).toBe(403);
    expect((del.json as Json)['message']).toBe(
      'namespaces "kube-system" is forbidden: this namespace may not be deleted',
    );
    // The reference scheduler's own identity may read it there.
    const can = await kubectl(cfg, [
      'auth',
      'can-i',
      'get',
      'configmaps/extension-apiserver-authentication',
      '-n',
      'kube-system',
      '--as',
      'system:kube-scheduler',
    ]);
    expect(can.stdout.trim()).toBe('yes');
    const lease = await kubectl(cfg, [
      'auth',
      'can-i',
      'create',
      'leases.coordination.k8s.io',
      '-n',
      'kube-system',
      '--as',
      'system:kube-scheduler',
    ]);
    expect(lease.stdout.trim()).toBe('yes');
  });
});
