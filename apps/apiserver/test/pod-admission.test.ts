import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  create,
  expectStatus,
  nodeBody,
  nodePath,
  podBody,
  podPath,
  unique,
  type Json,
} from './support/core.js';

// The pod admission plugins and --allow-privileged, through the built daemon (memory store).

const privileged = {
  containers: [{ name: 'app', image: 'registry.example/app:1.0', securityContext: { privileged: true } }],
};
const notReady = (seconds: number) => ({
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});
const unreachable = (seconds: number) => ({
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: seconds,
});

async function namespace(server: TestApiServer, annotations: Record<string, string> = {}): Promise<string> {
  const name = unique('ns');
  await create(server, '/api/v1/namespaces', { metadata: { name, annotations } });
  return name;
}

describe('default-enabled pod admission (memory store)', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('DefaultTolerationSeconds: a new pod tolerates not-ready and unreachable for 300 s', async () => {
    const pod = await create(server, podPath(await namespace(server)), podBody('web'));
    expect((pod['spec'] as Json)['tolerations']).toEqual([notReady(300), unreachable(300)]);
  });

  it('TaintNodesByCondition: a new node is tainted not-ready:NoSchedule', async () => {
    const node = await create(server, nodePath(), nodeBody(unique('node')));
    expect((node['spec'] as Json)['taints']).toEqual([
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
  });

  it('refuses privileged containers without --allow-privileged, on create and update', async () => {
    const ns = await namespace(server);
    const r = await server.request('POST', podPath(ns), { body: podBody('priv', privileged) });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      reason: 'Invalid',
      message:
        'Pod "priv" is invalid: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
      details: {
        name: 'priv',
        kind: 'Pod',
        causes: [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: disallowed by cluster policy',
            field: 'spec.containers[0].securityContext.privileged',
          },
        ],
      },
    });
    const pod = await create(server, podPath(ns), podBody('plain'));
    const spec = pod['spec'] as { containers: Json[] };
    const update = {
      ...pod,
      spec: { ...spec, containers: [{ ...spec.containers[0], securityContext: { privileged: true } }] },
    };
    const u = await server.request('PUT', podPath(ns, 'plain'), { body: update });
    expect(u.status).toBe(422);
    expect(u.text).toContain(
      'spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
    );
  });
});

describe('opt-in pod admission plugins, their configuration and the pod policy flags (memory store)', () => {
  let server: TestApiServer;
  let selective: string;
  let tolerant: string;
  const gpu = { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' };

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-pod-admission-'));
    const configFile = join(dir, 'admission.yaml');
    writeFileSync(
      configFile,
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: AdmissionConfiguration',
        'plugins:',
        '- name: PodNodeSelector',
        '  configuration:',
        '    podNodeSelectorPluginConfig:',
        '      clusterDefaultNodeSelector: tier=general',
        '- name: PodTolerationRestriction',
        '  configuration:',
        '    apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1',
        '    kind: Configuration',
        '    whitelist:',
        '    - operator: Exists',
        '',
      ].join('\n'),
    );
    server = await TestApiServer.start({
      args: [
        '--enable-admission-plugins=AlwaysPullImages,PodNodeSelector,PodTolerationRestriction,ExtendedResourceToleration,SecurityContextDeny,LimitPodHardAntiAffinityTopology',
        `--admission-control-config-file=${configFile}`,
        '--default-not-ready-toleration-seconds=60',
        '--default-unreachable-toleration-seconds=30',
        '--allow-privileged=true',
      ],
    });
    await server.ready();
    selective = await namespace(server, { 'scheduler.alpha.kubernetes.io/node-selector': 'env=prod' });
    tolerant = await namespace(server, {
      'scheduler.alpha.kubernetes.io/defaultTolerations': JSON.stringify([gpu]),
      'scheduler.alpha.kubernetes.io/tolerationsWhitelist': JSON.stringify([
        gpu,
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      ]),
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the toleration flags set the default tolerations; privileged containers are allowed', async () => {
    const pod = await create(server, podPath(selective), podBody('priv', privileged));
    const spec = pod['spec'] as Json;
    expect(spec['tolerations']).toEqual([notReady(60), unreachable(30)]);
    expect(spec['containers']).toMatchObject([
      { imagePullPolicy: 'Always', securityContext: { privileged: true } },
    ]);
  });

  it("PodNodeSelector merges the namespace's selector (else the configured default) and refuses a conflict", async () => {
    const merged = await create(
      server,
      podPath(selective),
      podBody('sel', { nodeSelector: { disk: 'ssd' } }),
    );
    expect((merged['spec'] as Json)['nodeSelector']).toEqual({ env: 'prod', disk: 'ssd' });
    const plain = await create(server, podPath(await namespace(server)), podBody('plain'));
    expect((plain['spec'] as Json)['nodeSelector']).toEqual({ tier: 'general' });
    const r = await server.request('POST', podPath(selective), {
      body: podBody('clash', { nodeSelector: { env: 'dev' } }),
    });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      reason: 'Forbidden',
      message:
        'pods "clash" is forbidden: pod node label selector conflicts with its namespace node label selector',
    });
  });

  it("PodTolerationRestriction adds the namespace's defaults and enforces its whitelist", async () => {
    const pod = await create(server, podPath(tolerant), podBody('tol'));
    // DefaultTolerationSeconds runs first; the namespace's defaults follow the pod's own.
    expect((pod['spec'] as Json)['tolerations']).toEqual([notReady(60), unreachable(30), gpu]);
    const other = { key: 'other', operator: 'Exists', effect: 'NoSchedule' };
    const r = await server.request('POST', podPath(tolerant), {
      body: podBody('outside', { tolerations: [other] }),
    });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      reason: 'Forbidden',
      message:
        'pods "outside" is forbidden: pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
    });
  });

  it('ExtendedResourceToleration tolerates the taint of a requested extended resource', async () => {
    const resources = { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } };
    const body = podBody('gpu', {
      containers: [{ name: 'app', image: 'registry.example/app:1.0', resources }],
    });
    const pod = await create(server, podPath(selective), body);
    expect((pod['spec'] as Json)['tolerations']).toContainEqual(gpu);
  });

  it('SecurityContextDeny and LimitPodHardAntiAffinityTopology refuse with the real messages', async () => {
    const runAsUser = await server.request('POST', podPath(selective), {
      body: podBody('root', { securityContext: { runAsUser: 0 } }),
    });
    expect(runAsUser.status).toBe(403);
    expect(runAsUser.json).toMatchObject({
      message: 'pods "root" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden',
    });
    const term = {
      labelSelector: { matchLabels: { app: 'web' } },
      topologyKey: 'topology.kubernetes.io/zone',
    };
    const zonal = await server.request('POST', podPath(selective), {
      body: podBody('zonal', {
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } },
      }),
    });
    expect(zonal.status).toBe(403);
    expect(zonal.json).toMatchObject({
      message:
        'pods "zonal" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed',
    });
    expect(await expectStatus(server.request('GET', podPath(selective, 'zonal')), 404)).toMatchObject({
      reason: 'NotFound',
    });
  });
});
