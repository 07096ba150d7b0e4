import type { LabelSelectorSpec } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import type { Labels } from '../../framework/affinity-terms.js';
import { NO_CLUSTER_OBJECTS, type ClusterObjects, type WorkloadKind } from '../../framework/interface.js';
import type { Pod } from '../../framework/types.js';
import { defaultSelector } from './common.js';
import { create } from './pod-topology-spread.js';

// kube's helper.DefaultSelector: services selecting the pod, plus the selector of the pod's
// controller (ownerReference with controller: true) when it is a v1 ReplicationController or an
// apps/v1 ReplicaSet or StatefulSet.

interface World {
  readonly services?: Readonly<Record<string, readonly Labels[]>>;
  readonly rcs?: Readonly<Record<string, Labels | null>>;
  readonly rss?: Readonly<Record<string, LabelSelectorSpec | null>>;
  readonly stss?: Readonly<Record<string, LabelSelectorSpec | null>>;
}

/** Objects keyed `namespace/name`. */
function objects(w: World): ClusterObjects {
  const find = <S>(m: Readonly<Record<string, S | null>> | undefined, key: string) =>
    m && Object.hasOwn(m, key)
      ? { found: true as const, selector: m[key] ?? null }
      : { found: false as const };
  return {
    ...NO_CLUSTER_OBJECTS,
    serviceSelectors: (ns) => w.services?.[ns] ?? [],
    replicationControllerSelector: (ns, name) => find(w.rcs, `${ns}/${name}`),
    workloadSelector: (kind: WorkloadKind, ns, name) =>
      find(kind === 'ReplicaSet' ? w.rss : w.stss, `${ns}/${name}`),
  };
}

interface Owner {
  apiVersion: string;
  kind: string;
  name: string;
  controller?: boolean;
}
const rsOwner = (name: string, more: Partial<Owner> = {}): Owner => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name,
  controller: true,
  ...more,
});

function pod(labels: Labels, owners: readonly Owner[] = [], ns = 'default'): Pod {
  return {
    metadata: { name: 'p', namespace: ns, labels, ...(owners.length > 0 ? { ownerReferences: owners } : {}) },
    spec: { containers: [{ name: 'c' }] },
  };
}

const web = { app: 'web' };
const webRs = { matchLabels: { app: 'web', 'pod-template-hash': 'h1' } };

describe('defaultSelector', () => {
  it.each<[string, Pod, World, string | undefined]>([
    ['nothing selects the pod', pod(web), {}, undefined],
    ['a service selecting the pod', pod(web), { services: { default: [web] } }, 'app=web'],
    [
      'services merged',
      pod({ ...web, tier: 'fe' }),
      { services: { default: [web, { tier: 'fe' }] } },
      'app=web,tier=fe',
    ],
    ['a service not selecting the pod', pod(web), { services: { default: [{ app: 'db' }] } }, undefined],
    ['a service of another namespace', pod(web), { services: { other: [web] } }, undefined],
    ['a service with an empty selector adds nothing', pod(web), { services: { default: [{}] } }, undefined],
    [
      'the owning ReplicaSet',
      pod(web, [rsOwner('rs')]),
      { rss: { 'default/rs': webRs } },
      'app=web,pod-template-hash=h1',
    ],
    [
      'the ReplicaSet with matchExpressions',
      pod({ ...web, track: 'a' }, [rsOwner('rs')]),
      {
        rss: {
          'default/rs': {
            matchLabels: web,
            matchExpressions: [{ key: 'track', operator: 'In', values: ['b', 'a'] }],
          },
        },
      },
      'app=web,track in (a,b)',
    ],
    [
      'a ReplicaSet of another namespace',
      pod(web, [rsOwner('rs')]),
      { rss: { 'other/rs': webRs } },
      undefined,
    ],
    ['an unknown ReplicaSet', pod(web, [rsOwner('gone')]), { rss: { 'default/rs': webRs } }, undefined],
    [
      'a non-controller owner is ignored',
      pod(web, [rsOwner('rs', { controller: false })]),
      { rss: { 'default/rs': webRs } },
      undefined,
    ],
    [
      'the controller among several owners',
      pod(web, [rsOwner('other', { controller: false }), rsOwner('rs')]),
      { rss: { 'default/rs': webRs, 'default/other': { matchLabels: { x: 'y' } } } },
      'app=web,pod-template-hash=h1',
    ],
    [
      'a ReplicaSet with a nil selector adds nothing',
      pod(web, [rsOwner('rs')]),
      { rss: { 'default/rs': null } },
      undefined,
    ],
    [
      'a ReplicaSet with an empty selector adds nothing',
      pod(web, [rsOwner('rs')]),
      { rss: { 'default/rs': {} } },
      undefined,
    ],
    [
      'an unparsable ReplicaSet selector is skipped',
      pod(web, [rsOwner('rs')]),
      {
        services: { default: [web] },
        rss: { 'default/rs': { matchExpressions: [{ key: 'app', operator: 'Bogus' }] } },
      },
      'app=web',
    ],
    [
      'extensions/v1beta1 ReplicaSets are not read',
      pod(web, [rsOwner('rs', { apiVersion: 'extensions/v1beta1' })]),
      { rss: { 'default/rs': webRs } },
      undefined,
    ],
    [
      'a malformed apiVersion is ignored',
      pod(web, [rsOwner('rs', { apiVersion: 'apps/v1/x' })]),
      { rss: { 'default/rs': webRs } },
      undefined,
    ],
    [
      'the owning StatefulSet',
      pod(web, [rsOwner('db', { kind: 'StatefulSet' })]),
      { stss: { 'default/db': { matchLabels: { app: 'web' } } } },
      'app=web',
    ],
    [
      'the owning ReplicationController',
      pod({ ...web, v: '2' }, [
        { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', controller: true },
      ]),
      { rcs: { 'default/rc': { app: 'web', v: '2' } } },
      'app=web,v=2',
    ],
    [
      'a ReplicationController whose selector matches but does not own the pod',
      pod(web),
      { rcs: { 'default/rc': web } },
      undefined,
    ],
    [
      'a ReplicationController named with the apps group is ignored',
      pod(web, [{ apiVersion: 'apps/v1', kind: 'ReplicationController', name: 'rc', controller: true }]),
      { rcs: { 'default/rc': web } },
      undefined,
    ],
    [
      'a service and the owning ReplicaSet, requirements appended as kube does',
      pod({ ...web, tier: 'fe', 'pod-template-hash': 'h1' }, [rsOwner('rs')]),
      { services: { default: [{ tier: 'fe' }, web] }, rss: { 'default/rs': webRs } },
      'app=web,app=web,pod-template-hash=h1,tier=fe',
    ],
    [
      'a service and the owning ReplicationController, merged as one set',
      pod({ ...web, v: '2' }, [
        { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', controller: true },
      ]),
      { services: { default: [web] }, rcs: { 'default/rc': { app: 'web', v: '2' } } },
      'app=web,v=2',
    ],
  ])('%s', (_name, p, world, want) => {
    expect(defaultSelector(p, objects(world))?.toString()).toBe(want);
  });

  it('the merged selector selects the siblings only', () => {
    const sel = defaultSelector(
      pod({ ...web, 'pod-template-hash': 'h1' }, [rsOwner('rs')]),
      objects({ services: { default: [web] }, rss: { 'default/rs': webRs } }),
    );
    expect(sel?.matches({ app: 'web', 'pod-template-hash': 'h1', extra: 'x' })).toBe(true);
    expect(sel?.matches({ app: 'web', 'pod-template-hash': 'h2' })).toBe(false);
    expect(sel?.matches({ 'pod-template-hash': 'h1' })).toBe(false);
  });
});

describe('PodTopologySpread asks for the workload informers', () => {
  const asked = (args: Record<string, unknown>) => {
    let n = 0;
    create(args, { profileName: 'p', objects: { ...NO_CLUSTER_OBJECTS, watchWorkloads: () => void n++ } });
    return n;
  };
  it('with system defaulting or listed default constraints, as kube sets its listers', () => {
    expect(asked({})).toBe(1);
    expect(
      asked({
        defaultingType: 'List',
        defaultConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' }],
      }),
    ).toBe(1);
  });
  it('not with List defaulting and no constraints', () => {
    expect(asked({ defaultingType: 'List' })).toBe(0);
  });
});
