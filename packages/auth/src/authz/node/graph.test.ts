import { describe, expect, it } from 'vitest';
import {
  feedNodeGraph,
  NodeGraph,
  persistentVolumeGraphSource,
  podGraphSource,
  podReferences,
  type FeedChange,
  type ObjectFeed,
  type PodLike,
} from './index.js';

const pod = (
  name: string,
  nodeName: string,
  spec: Record<string, unknown> = {},
  annotations?: Record<string, string>,
): PodLike => ({
  metadata: { name, namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...spec },
});

const cm = (name: string, namespace = 'ns') => ({ type: 'configmap' as const, namespace, name });
const secret = (name: string, namespace = 'ns') => ({ type: 'secret' as const, namespace, name });

describe('podReferences', () => {
  it('finds every secret, configmap, claim and the service account a pod names', () => {
    const refs = podReferences(
      pod('p', 'n1', {
        serviceAccountName: 'sa',
        imagePullSecrets: [{ name: 'pull' }, { name: '' }],
        initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'init-env' } }] }],
        containers: [
          {
            name: 'c',
            env: [
              { name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } },
              { name: 'B', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'k' } } },
            ],
            envFrom: [{ configMapRef: { name: 'from-cm' } }],
          },
        ],
        ephemeralContainers: [{ name: 'e', envFrom: [{ secretRef: { name: 'debug' } }] }],
        volumes: [
          { name: 'v1', secret: { secretName: 'vol-secret' } },
          { name: 'v2', configMap: { name: 'vol-cm' } },
          {
            name: 'v3',
            projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }] },
          },
          { name: 'v4', persistentVolumeClaim: { claimName: 'claim' } },
          { name: 'v5', ephemeral: { volumeClaimTemplate: { spec: {} } } },
          { name: 'v6', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
          { name: 'v7', rbd: { secretRef: { name: 'rbd-secret' } } },
        ],
      }),
    );
    expect({ ...refs, secrets: [...refs.secrets].sort() }).toEqual({
      secrets: [
        'csi-secret',
        'debug',
        'env-secret',
        'init-env',
        'proj-secret',
        'pull',
        'rbd-secret',
        'vol-secret',
      ],
      configMaps: ['from-cm', 'env-cm', 'vol-cm', 'proj-cm'],
      persistentVolumeClaims: ['claim', 'p-v5'],
      serviceAccount: 'sa',
      clusterTrustBundles: false,
    });
  });
});

describe('NodeGraph', () => {
  it('relates a bound pod and what it names to its node only', () => {
    const g = new NodeGraph();
    g.set(
      podGraphSource,
      pod('p', 'n1', { volumes: [{ name: 'v', configMap: { name: 'cfg' } }], serviceAccountName: 'sa' }),
    );
    expect(g.reaches('n1', cm('cfg'))).toBe(true);
    expect(g.reaches('n1', { type: 'pod', namespace: 'ns', name: 'p' })).toBe(true);
    expect(g.reaches('n1', { type: 'serviceAccount', namespace: 'ns', name: 'sa' })).toBe(true);
    expect(g.reaches('n2', cm('cfg'))).toBe(false);
    expect(g.reaches('n1', cm('cfg', 'other'))).toBe(false);
    expect(g.reaches('n1', cm('unrelated'))).toBe(false);
  });

  it('ignores unbound pods and gives mirror pods no reach beyond themselves', () => {
    const g = new NodeGraph();
    const refs = { volumes: [{ name: 'v', secret: { secretName: 's' } }] };
    g.set(podGraphSource, pod('unbound', '', refs));
    g.set(podGraphSource, pod('mirror', 'n1', refs, { 'kubernetes.io/config.mirror': 'x' }));
    expect(g.reaches('n1', secret('s'))).toBe(false);
    expect(g.reaches('n1', { type: 'pod', namespace: 'ns', name: 'mirror' })).toBe(true);
  });

  it('keeps an object related while any pod on the node names it, and forgets it after the last', () => {
    const g = new NodeGraph();
    const refs = { volumes: [{ name: 'v', configMap: { name: 'shared' } }] };
    const a = pod('a', 'n1', refs);
    const b = pod('b', 'n1', refs);
    g.set(podGraphSource, a);
    g.set(podGraphSource, b);
    g.delete(podGraphSource, a);
    expect(g.reaches('n1', cm('shared'))).toBe(true);
    // An update replaces what the pod contributed: moved to another node.
    g.set(podGraphSource, pod('b', 'n2', refs));
    expect(g.reaches('n1', cm('shared'))).toBe(false);
    expect(g.reaches('n2', cm('shared'))).toBe(true);
    g.delete(podGraphSource, pod('b', 'n2', refs));
    expect(g.reaches('n2', cm('shared'))).toBe(false);
  });

  it('follows claims to their volumes and the secrets the volumes name', () => {
    const g = new NodeGraph();
    const pv = {
      metadata: { name: 'vol' },
      spec: {
        claimRef: { namespace: 'ns', name: 'claim' },
        csi: { driver: 'd', nodeStageSecretRef: { name: 'stage', namespace: 'ns' } },
      },
    };
    g.set(persistentVolumeGraphSource, pv);
    const pvVertex = { type: 'pv' as const, namespace: '', name: 'vol' };
    expect(g.reaches('n1', pvVertex)).toBe(false);
    g.set(
      podGraphSource,
      pod('p', 'n1', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'claim' } }] }),
    );
    expect(g.reaches('n1', { type: 'pvc', namespace: 'ns', name: 'claim' })).toBe(true);
    expect(g.reaches('n1', pvVertex)).toBe(true);
    expect(g.reaches('n1', secret('stage'))).toBe(true);
    expect(g.reaches('n2', secret('stage'))).toBe(false);
    g.delete(persistentVolumeGraphSource, pv);
    expect(g.reaches('n1', pvVertex)).toBe(false);
    expect(g.reaches('n1', secret('stage'))).toBe(false);
  });

  it('is fed by an informer: the first read, each change, and a re-read that replaces it all', () => {
    const items = new Map<string, PodLike>();
    const listeners: ((c: FeedChange<PodLike>) => void)[] = [];
    const feed: ObjectFeed<PodLike> = {
      list: () => items.values(),
      subscribe: (l) => {
        listeners.push(l);
        return () => undefined;
      },
    };
    const emit = (c: FeedChange<PodLike>) => listeners.forEach((l) => l(c));
    const refs = (name: string) => ({ volumes: [{ name: 'v', configMap: { name } }] });
    items.set('a', pod('a', 'n1', refs('cfg-a')));
    const g = new NodeGraph();
    feedNodeGraph(g, podGraphSource, feed);
    expect(g.reaches('n1', cm('cfg-a'))).toBe(true);

    const b = pod('b', 'n1', refs('cfg-b'));
    emit({ type: 'ADDED', object: b });
    expect(g.reaches('n1', cm('cfg-b'))).toBe(true);
    emit({ type: 'DELETED', object: b });
    expect(g.reaches('n1', cm('cfg-b'))).toBe(false);

    items.clear();
    items.set('c', pod('c', 'n1', refs('cfg-c')));
    emit({ type: 'replaced' });
    expect(g.reaches('n1', cm('cfg-a'))).toBe(false);
    expect(g.reaches('n1', cm('cfg-c'))).toBe(true);
  });
});
