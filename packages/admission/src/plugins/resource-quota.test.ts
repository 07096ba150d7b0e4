import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../index.js';
import { chainOf, depsOf } from '../testing/index.js';

type Json = Record<string, unknown>;
const admin = { name: 'admin', uid: '', groups: ['system:masters'], extra: {} };
const stored = (o: Json): StoredObject => o as unknown as StoredObject;

function quota(name: string, hard: Json, used: Json | undefined, spec: Json = {}): StoredObject {
  return stored({
    metadata: { name, namespace: 'ns', resourceVersion: '1' },
    spec: { hard, ...spec },
    status: { hard, ...(used ? { used } : {}) },
  });
}

function nameOf(object: Json): string {
  const meta = object['metadata'] as { name?: string } | undefined;
  return meta?.name ?? 'x';
}

function create(
  resource: string,
  kind: string,
  object: Json,
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  const group = resource === 'leases' ? 'coordination.k8s.io' : '';
  return {
    operation: 'CREATE',
    resource: { group, version: 'v1', resource },
    subresource: '',
    kind: { group, version: 'v1', kind },
    namespace: 'ns',
    name: nameOf(object),
    object: stored({ metadata: { name: 'x', namespace: 'ns' }, ...object }),
    oldObject: undefined,
    user: admin,
    dryRun: false,
    ...over,
  };
}

const pod = (containers: Json[], spec: Json = {}) =>
  create('pods', 'Pod', { metadata: { name: 'p', namespace: 'ns' }, spec: { containers, ...spec } });
const app = (resources: Json = {}): Json => ({ name: 'app', image: 'x', resources });

function setup(quotas: StoredObject[], opts: { configFile?: string } = {}) {
  const store = { resourcequotas: quotas };
  const chain = chainOf(['ResourceQuota'], depsOf(store), opts);
  const run = async (a: AdmissionAttributes): Promise<string | undefined> => {
    try {
      await chain.validate(a);
      return undefined;
    } catch (err) {
      const s = (err as StatusError).status;
      return `${s.code} ${s.message}`;
    }
  };
  const used = (name: string) =>
    (store.resourcequotas.find((q) => q.metadata.name === name) as unknown as { status: { used: Json } })
      .status.used;
  return { run, used };
}

describe('ResourceQuota', () => {
  it('charges a pod to the quota and refuses the one over the limit', async () => {
    const { run, used } = setup([quota('q', { pods: '2' }, { pods: '1' })]);
    expect(await run(pod([app()]))).toBeUndefined();
    expect(used('q')).toEqual({ pods: '2' });
    expect(await run(pod([app()]))).toBe(
      '403 pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );
    expect(used('q')).toEqual({ pods: '2' });
  });

  it('charges compute resources and names only the exceeded ones', async () => {
    const { run, used } = setup([
      quota('q', { 'requests.cpu': '1', pods: '10' }, { 'requests.cpu': '800m', pods: '1' }),
    ]);
    expect(await run(pod([app({ requests: { cpu: '300m' } })]))).toBe(
      '403 pods "p" is forbidden: exceeded quota: q, requested: requests.cpu=300m, used: requests.cpu=800m, limited: requests.cpu=1',
    );
    expect(await run(pod([app({ requests: { cpu: '200m' } })]))).toBeUndefined();
    expect(used('q')).toEqual({ 'requests.cpu': '1', pods: '2' });
  });

  it('needs every container to state what a quota on cpu or memory limits', async () => {
    const { run } = setup([
      quota(
        'compute',
        { 'limits.cpu': '4', 'requests.memory': '1Gi' },
        { 'limits.cpu': '0', 'requests.memory': '0' },
      ),
    ]);
    expect(await run(pod([app()]))).toBe(
      '403 pods "p" is forbidden: failed quota: compute: must specify limits.cpu for: app; must specify requests.memory for: app',
    );
  });

  it('refuses while the quota has no usage recorded yet', async () => {
    const { run } = setup([quota('q', { pods: '2' }, undefined)]);
    expect(await run(pod([app()]))).toBe(
      '403 pods "p" is forbidden: status unknown for quota: q, resources: pods',
    );
  });

  it('counts objects of any namespaced resource, with the legacy names of core kinds', async () => {
    const { run, used } = setup([
      quota(
        'q',
        { configmaps: '1', 'count/configmaps': '5', 'count/leases.coordination.k8s.io': '0' },
        {
          configmaps: '0',
          'count/configmaps': '0',
          'count/leases.coordination.k8s.io': '0',
        },
      ),
    ]);
    expect(await run(create('configmaps', 'ConfigMap', {}))).toBeUndefined();
    expect(used('q')).toEqual({
      configmaps: '1',
      'count/configmaps': '1',
      'count/leases.coordination.k8s.io': '0',
    });
    expect(await run(create('configmaps', 'ConfigMap', {}))).toBe(
      '403 configmaps "x" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
    );
    expect(await run(create('leases', 'Lease', {}))).toBe(
      '403 leases.coordination.k8s.io "x" is forbidden: exceeded quota: q, requested: count/leases.coordination.k8s.io=1, used: count/leases.coordination.k8s.io=0, limited: count/leases.coordination.k8s.io=0',
    );
  });

  it('applies a scoped quota only to the pods its scopes take', async () => {
    const { run, used } = setup([
      quota('best-effort', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] }),
      quota('terminating', { pods: '1' }, { pods: '0' }, { scopes: ['Terminating'] }),
    ]);
    expect(await run(pod([app()]))).toBe(
      '403 pods "p" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0',
    );
    const burstable = app({ requests: { cpu: '100m' } });
    expect(await run(pod([burstable]))).toBeUndefined();
    expect(await run(pod([burstable], { activeDeadlineSeconds: 30 }))).toBeUndefined();
    expect(used('terminating')).toEqual({ pods: '1' });
  });

  it('matches a PriorityClass scope selector', async () => {
    const { run } = setup([
      quota(
        'high',
        { pods: '0' },
        { pods: '0' },
        {
          scopeSelector: {
            matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
          },
        },
      ),
    ]);
    expect(await run(pod([app()], { priorityClassName: 'low' }))).toBeUndefined();
    expect(await run(pod([app()], { priorityClassName: 'high' }))).toMatch(/exceeded quota: high/);
  });

  it('charges nothing on a dry run, and ignores updates, subresources and events', async () => {
    const { run, used } = setup([
      quota('q', { pods: '1', 'count/events': '0' }, { pods: '0', 'count/events': '0' }),
    ]);
    expect(await run({ ...pod([app()]), dryRun: true })).toBeUndefined();
    expect(used('q')).toEqual({ pods: '0', 'count/events': '0' });
    expect(await run({ ...pod([app()]), operation: 'UPDATE' })).toBeUndefined();
    expect(await run({ ...pod([app()]), subresource: 'binding' })).toBeUndefined();
    expect(await run(create('events', 'Event', {}))).toBeUndefined();
  });

  it('never lets concurrent creates together pass the limit', async () => {
    const { run, used } = setup([quota('q', { pods: '5' }, { pods: '0' })]);
    const results = await Promise.all(Array.from({ length: 20 }, () => run(pod([app()]))));
    expect(results.filter((r) => r === undefined)).toHaveLength(5);
    expect(results.filter((r) => r?.includes('exceeded quota: q'))).toHaveLength(15);
    expect(used('q')).toEqual({ pods: '5' });
  });

  it('stays exact across two servers on one store: a stale charge conflicts and is decided again', async () => {
    const store = { resourcequotas: [quota('q', { pods: '5' }, { pods: '0' })] };
    const servers = [
      chainOf(['ResourceQuota'], depsOf(store)),
      chainOf(['ResourceQuota'], depsOf(store)),
    ] as const;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? servers[0] : servers[1]).validate(pod([app()])).then(
          () => 'ok',
          (err: StatusError) => err.status.message ?? '',
        ),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(5);
    expect(results.filter((r) => r.includes('exceeded quota: q'))).toHaveLength(15);
    expect(store.resourcequotas[0]).toMatchObject({ status: { used: { pods: '5' } } });
  });

  describe('configuration', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-quota-'));
    const file = (name: string, quotaConfig: string): string => {
      const path = join(dir, name);
      writeFileSync(
        path,
        `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  configuration:\n${quotaConfig
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n')}\n`,
      );
      return path;
    };

    it('refuses consumption of a limited resource no quota covers', async () => {
      const configFile = file(
        'limited.yaml',
        'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  matchContains: [requests.cpu]',
      );
      const { run } = setup([], { configFile });
      expect(await run(pod([app()]))).toBeUndefined();
      expect(await run(pod([app({ requests: { cpu: '1' } })]))).toBe(
        '403 pods "p" is forbidden: insufficient quota to consume: requests.cpu',
      );
      const covered = setup([quota('q', { 'requests.cpu': '2' }, { 'requests.cpu': '0' })], { configFile });
      expect(await covered.run(pod([app({ requests: { cpu: '1' } })]))).toBeUndefined();
    });

    it('refuses a pod in a limited scope no quota covers', async () => {
      const configFile = file(
        'scopes.yaml',
        'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  matchScopes:\n  - {scopeName: PriorityClass, operator: In, values: [cluster-services]}',
      );
      const { run } = setup([], { configFile });
      expect(await run(pod([app()], { priorityClassName: 'cluster-services' }))).toBe(
        '403 pods "p" is forbidden: insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]',
      );
      expect(await run(pod([app()], { priorityClassName: 'other' }))).toBeUndefined();
    });

    it.each([
      ['a wrong kind', 'apiVersion: apiserver.config.k8s.io/v1\nkind: Foo', /kind/],
      [
        'a limited resource without a name',
        'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- matchContains: [cpu]',
        /limitedResources\[0\]\.resource/,
      ],
      [
        'an unknown field',
        'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResource: []',
        /limitedResource/,
      ],
      [
        'In without values',
        'apiVersion: apiserver.config.k8s.io/v1\nkind: ResourceQuotaConfiguration\nlimitedResources:\n- resource: pods\n  matchScopes: [{scopeName: PriorityClass, operator: In}]',
        /matchScopes\[0\]\.values: must be at least one value/,
      ],
    ])('refuses %s at start-up, naming the file and field', (_name, body, message) => {
      const configFile = file('bad.yaml', body);
      expect(() => setup([], { configFile })).toThrow(message);
      expect(() => setup([], { configFile })).toThrow(configFile);
    });
  });
});
