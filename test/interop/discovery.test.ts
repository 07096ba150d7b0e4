/**
 * Discovery of Keel's API server next to the reference kube-apiserver 1.20.2: for every group
 * both serve, the versions and the preferred version; for every group/version both serve, each
 * resource both serve must agree on verbs, short names, categories, namespaced, kind, the
 * subresource's group/version, and singularName (where 1.20 fills it in). Every difference is
 * either fixed in Keel or listed, with its reason, in ALLOWED below; the test fails on any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, Json } from './support/client.js';
import { startKeelApiServer } from './support/keel.js';
import {
  ClusterPKI,
  requireReference,
  startReferenceApiServer,
  type RunningApiServer,
} from './support/reference.js';

/**
 * Differences that are legitimate, each with why. The keys are the exact lines `differences()`
 * prints, so a new difference (or a changed one) fails the test.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  // Keel serves the versions current upstream serves: these v1beta1 versions were removed in
  // 1.22 (1.25 for events; authentication, authorization, rbac, storage, admissionregistration,
  // scheduling, coordination); kubectl 1.33 knows only v1 of them.
  'group events.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]': 'v1beta1 removed upstream in 1.25',
  'group authentication.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]': 'v1beta1 removed in 1.22',
  'group authorization.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]': 'v1beta1 removed in 1.22',
  'group rbac.authorization.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]':
    'v1beta1 removed in 1.22',
  'group storage.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]':
    'v1beta1 removed in 1.22 (CSIStorageCapacity 1.27)',
  'group admissionregistration.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]':
    'v1beta1 removed in 1.22',
  'group scheduling.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]': 'v1beta1 removed in 1.22',
  'group coordination.k8s.io: versions keel=["v1"] reference=["v1","v1beta1"]': 'v1beta1 removed in 1.22',
  // policy/v1 (PodDisruptionBudget) is new in 1.21 and preferred since; Keel keeps v1beta1 for 1.20's scheduler.
  'group policy: versions keel=["v1","v1beta1"] reference=["v1beta1"]': 'policy/v1 is 1.21+',
  // Priority and fairness: v1beta2 (1.23), v1beta3 (1.26), v1 (1.29, preferred).
  'group flowcontrol.apiserver.k8s.io: versions keel=["v1","v1beta3","v1beta2","v1beta1"] reference=["v1beta1"]':
    'newer flowcontrol versions',
  // Services take deletecollection since 1.23 (kubectl delete svc --all uses it).
  'v1 services: verbs keel=["create","delete","deletecollection","get","list","patch","update","watch"] reference=["create","delete","get","list","patch","update","watch"]':
    'services deletecollection is 1.23+',
};

interface Resource {
  name: string;
  singularName?: string;
  namespaced: boolean;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

interface Served {
  /** group name ('' for core) → versions in preference order. */
  groups: Map<string, string[]>;
  /** `group/version` ('v1' for core) → resource name → resource. */
  resources: Map<string, Map<string, Resource>>;
}

async function served(client: ApiClient): Promise<Served> {
  const get = async (path: string): Promise<Json> => {
    const r = await client.get(path);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
    return r.json;
  };
  const groups = new Map<string, string[]>();
  groups.set('', (await get('/api'))['versions'] as string[]);
  for (const g of (await get('/apis'))['groups'] as Json[]) {
    const versions = (g['versions'] as Json[]).map((v) => v['version'] as string);
    const preferred = (g['preferredVersion'] as Json)['version'] as string;
    groups.set(g['name'] as string, [preferred, ...versions.filter((v) => v !== preferred)]);
  }
  const resources = new Map<string, Map<string, Resource>>();
  for (const [group, versions] of groups) {
    for (const version of versions) {
      const gv = group === '' ? version : `${group}/${version}`;
      const list = await get(group === '' ? `/api/${version}` : `/apis/${gv}`);
      resources.set(gv, new Map((list['resources'] as Resource[]).map((r) => [r.name, r])));
    }
  }
  return { groups, resources };
}

const show = (v: unknown) => JSON.stringify(v ?? null);
const sorted = (v: string[] | undefined) => [...(v ?? [])].sort();

/**
 * What the reference kube-scheduler 1.20 lists and watches (its informers wait for every one of
 * them): each must be served by both, so that the comparison covers them.
 */
const SCHEDULER_RESOURCES = [
  'v1 pods',
  'v1 nodes',
  'v1 services',
  'v1 replicationcontrollers',
  'v1 persistentvolumes',
  'v1 persistentvolumeclaims',
  'apps/v1 replicasets',
  'apps/v1 statefulsets',
  'storage.k8s.io/v1 storageclasses',
  'storage.k8s.io/v1 csinodes',
  'policy/v1beta1 poddisruptionbudgets',
  'coordination.k8s.io/v1 leases',
  'events.k8s.io/v1 events',
];

/** One line per difference between Keel and the reference, for what both serve. */
function differences(keel: Served, ref: Served): { diffs: string[]; notes: string[]; compared: string[] } {
  const diffs: string[] = [];
  const notes: string[] = [];
  const compared: string[] = [];
  for (const [group, refVersions] of ref.groups) {
    const keelVersions = keel.groups.get(group);
    if (!keelVersions) {
      notes.push(`group ${group || 'core'}: only in the reference`);
      continue;
    }
    if (show(keelVersions) !== show(refVersions))
      diffs.push(
        `group ${group || 'core'}: versions keel=${show(keelVersions)} reference=${show(refVersions)}`,
      );
  }
  for (const group of keel.groups.keys())
    if (!ref.groups.has(group)) notes.push(`group ${group}: only in Keel`);
  for (const [gv, refResources] of ref.resources) {
    const keelResources = keel.resources.get(gv);
    if (!keelResources) continue;
    for (const [name, r] of refResources) {
      const k = keelResources.get(name);
      if (!k) {
        notes.push(`${gv} ${name}: only in the reference`);
        continue;
      }
      compared.push(`${gv} ${name}`);
      const fields: [string, unknown, unknown][] = [
        ['namespaced', k.namespaced, r.namespaced],
        ['kind', k.kind, r.kind],
        ['group', k.group, r.group],
        ['version', k.version, r.version],
        ['verbs', sorted(k.verbs), sorted(r.verbs)],
        ['shortNames', sorted(k.shortNames), sorted(r.shortNames)],
        ['categories', sorted(k.categories), sorted(r.categories)],
      ];
      // 1.20 leaves singularName empty for most resources.
      if ((r.singularName ?? '') !== '') fields.push(['singularName', k.singularName, r.singularName]);
      for (const [field, kv, rv] of fields)
        if (show(kv) !== show(rv))
          diffs.push(`${gv} ${name}: ${field} keel=${show(kv)} reference=${show(rv)}`);
    }
    for (const name of keelResources.keys())
      if (!refResources.has(name)) notes.push(`${gv} ${name}: only in Keel`);
  }
  return { diffs, notes, compared };
}

describe('discovery: keel-apiserver next to the reference kube-apiserver 1.20.2', () => {
  let pki: ClusterPKI;
  let ref: RunningApiServer | undefined;
  let keel: RunningApiServer | undefined;

  beforeAll(async () => {
    requireReference();
    pki = new ClusterPKI();
    // Both start at once; when one fails the other is still stopped (afterAll sees what started).
    const [r, k] = await Promise.allSettled([startReferenceApiServer(pki), startKeelApiServer(pki)]);
    if (r.status === 'fulfilled') ref = r.value;
    if (k.status === 'fulfilled') keel = k.value;
    if (r.status === 'rejected') throw r.reason;
    if (k.status === 'rejected') throw k.reason;
  }, 300_000);

  afterAll(async () => {
    await Promise.all([ref?.stop(), keel?.stop()]);
    pki?.cleanup();
  }, 120_000);

  it('agrees on groups, versions and the resources both serve (or the difference is allowed)', async () => {
    if (!ref || !keel) throw new Error('servers did not start');
    const [k, r] = await Promise.all([served(keel.admin), served(ref.admin)]);
    const { diffs, notes, compared } = differences(k, r);
    // Not a comparison of nothing: everything the reference scheduler lists is in both.
    expect(SCHEDULER_RESOURCES.filter((res) => !compared.includes(res))).toEqual([]);
    expect(compared.length).toBeGreaterThan(40);
    // What one serves and the other does not is expected (Keel serves a subset, and newer kinds).
    console.log(`discovery notes (not failures):\n  ${notes.join('\n  ')}`);
    const unexpected = diffs.filter((d) => !(d in ALLOWED));
    const stale = Object.keys(ALLOWED).filter((d) => !diffs.includes(d));
    expect({ unexpected, stale }).toEqual({ unexpected: [], stale: [] });
  }, 120_000);
});
