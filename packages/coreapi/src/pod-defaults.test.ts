import { describe, expect, it } from 'vitest';
import { computePodQOS } from './pod-defaults.js';
import { podView } from './pod-view.js';
import { createdPod, decodedPod } from './testing/pods.js';

describe('Pod defaults and create preparation', () => {
  it('fills the defaults Go fills and writes the wire form in Go order', () => {
    const pod = createdPod();
    expect(podView.encode(pod)).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p1', namespace: 'default', uid: 'uid-1', resourceVersion: '10', generation: 1, creationTimestamp: '2024-05-01T10:00:00Z' },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'nginx:1.25',
            resources: {},
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        schedulerName: 'default-scheduler',
        enableServiceLinks: true,
      },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    });
  });

  it.each<[string, string, string]>([
    ['no tag', 'nginx', 'Always'],
    ['latest', 'nginx:latest', 'Always'],
    ['a tag', 'nginx:1.25', 'IfNotPresent'],
    ['a registry port and no tag', 'reg:5000/app', 'Always'],
    ['a digest', 'nginx@sha256:abc', 'IfNotPresent'],
  ])('imagePullPolicy for an image with %s', (_name, image, policy) => {
    const pod = decodedPod({ spec: { containers: [{ name: 'a', image }] } });
    expect(pod.spec?.containers?.[0]?.imagePullPolicy).toBe(policy);
  });

  it('keeps what the client set and copies limits into missing requests', () => {
    const pod = decodedPod({
      spec: {
        schedulerName: 'other',
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 0,
        containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } } }],
      },
    });
    expect(pod.spec).toMatchObject({ schedulerName: 'other', restartPolicy: 'Never', terminationGracePeriodSeconds: 0 });
    expect(pod.spec?.containers?.[0]?.resources?.requests).toEqual({ cpu: '500m', memory: '1Gi' });
    expect(pod.spec?.containers?.[0]?.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
  });

  it('defaults hostPort to containerPort on the host network', () => {
    const pod = decodedPod({ spec: { hostNetwork: true, containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 8080 }] }] } });
    expect(pod.spec?.containers?.[0]?.ports).toEqual([{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }]);
  });

  it('mirrors serviceAccount and serviceAccountName, and podIP into podIPs', () => {
    const pod = decodedPod({ spec: { serviceAccount: 'sa', containers: [] }, status: { podIP: '10.0.0.5' } });
    expect(pod.spec).toMatchObject({ serviceAccountName: 'sa', serviceAccount: 'sa' });
    expect(pod.status).toMatchObject({ podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }] });
  });

  it('drops a client status on create and adds SchedulingGated for gated pods', () => {
    const pod = createdPod({ schedulingGates: [{ name: 'example.com/wait' }] });
    expect(pod.status).toEqual({
      phase: 'Pending',
      qosClass: 'BestEffort',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }],
    });
    expect(podView.encode(pod)['status']).toMatchObject({ conditions: [{ lastProbeTime: null, lastTransitionTime: null }] });
  });

  it('merges matchLabelKeys into the affinity term selector', () => {
    const term = { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'zone', matchLabelKeys: ['rev', 'missing'] };
    const pod = createdPod({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } }, { labels: { rev: '7' } });
    expect(pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector).toEqual({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'rev', operator: 'In', values: ['7'] }],
    });
  });
});

describe('QoS class', () => {
  const c = (resources: Record<string, unknown>) => ({ name: 'a', image: 'x', resources });
  it.each<[string, Record<string, unknown>[], string]>([
    ['no resources', [c({})], 'BestEffort'],
    ['zero requests', [c({ requests: { cpu: '0' } })], 'BestEffort'],
    ['requests only', [c({ requests: { cpu: '100m' } })], 'Burstable'],
    ['equal cpu and memory limits (requests defaulted)', [c({ limits: { cpu: '1', memory: '1Gi' } })], 'Guaranteed'],
    ['limits differ from requests', [c({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } })], 'Burstable'],
    ['only a cpu limit', [c({ limits: { cpu: '1' } })], 'Burstable'],
    ['one guaranteed, one best-effort container', [c({ limits: { cpu: '1', memory: '1Gi' } }), { name: 'b', image: 'x' }], 'Burstable'],
    ['extended resources are ignored', [c({ limits: { 'example.com/gpu': '1' } })], 'BestEffort'],
  ])('%s → %s', (_name, containers, qos) => {
    expect(computePodQOS(decodedPod({ spec: { containers } }))).toBe(qos);
  });
});

