import { describe, expect, it } from 'vitest';
import type { ClusterRole, ClusterRoleBinding, RoleBinding } from '../types.js';
import { AUTOUPDATE_ANNOTATION, bootstrapPolicy, reconcileBinding, reconcileRole } from './index.js';

const policy = bootstrapPolicy();
const byName = <T extends { metadata: { name?: string } }>(list: readonly T[], name: string): T => {
  const found = list.find((o) => o.metadata.name === name);
  if (!found) throw new Error(`no default ${name}`);
  return structuredClone(found);
};
const role = (name: string) => byName(policy.clusterRoles, name);
const binding = (name: string) => byName(policy.clusterRoleBindings, name);

/** What a stored object looks like: the default plus the fields the store and server add. */
function stored<T extends { metadata: object }>(obj: T): T {
  return { ...obj, metadata: { ...obj.metadata, uid: 'u-1', resourceVersion: '7', creationTimestamp: 'x' } };
}

describe('reconcileRole', () => {
  it('creates a missing role as the default', () => {
    expect(reconcileRole(undefined, role('view'))).toEqual({ op: 'create', object: role('view') });
  });

  it('leaves an up-to-date role alone', () => {
    expect(reconcileRole(stored(role('system:kube-scheduler')), role('system:kube-scheduler'))).toEqual({
      op: 'none',
    });
  });

  it('adds missing rules as single-verb pieces and keeps the rules a user added', () => {
    const existing = stored(role('system:basic-user'));
    const userRule = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] };
    existing.rules = [
      userRule,
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
    ];
    const out = reconcileRole(existing, role('system:basic-user'));
    expect(out.op).toBe('update');
    if (out.op !== 'update') return;
    expect(out.object.rules).toEqual([
      userRule,
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ]);
    expect(out.object.metadata.uid).toBe('u-1');
  });

  it('counts a wildcard rule a user holds as covering the default', () => {
    const existing = stored(role('system:heapster'));
    existing.rules = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
    expect(reconcileRole(existing, role('system:heapster'))).toEqual({ op: 'none' });
  });

  it('adds missing labels and annotations without overwriting the stored values', () => {
    const existing = stored(role('system:discovery'));
    existing.metadata.labels = { team: 'a', 'kubernetes.io/bootstrapping': 'mine' };
    existing.metadata.annotations = {};
    const out = reconcileRole(existing, role('system:discovery'));
    expect(out.op).toBe('update');
    if (out.op !== 'update') return;
    expect(out.object.metadata.labels).toEqual({ team: 'a', 'kubernetes.io/bootstrapping': 'mine' });
    expect(out.object.metadata.annotations).toEqual({ [AUTOUPDATE_ANNOTATION]: 'true' });
  });

  it('leaves a role with autoupdate "false" exactly as it is', () => {
    const existing = stored(role('edit'));
    existing.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
    existing.metadata.labels = {};
    delete existing.aggregationRule;
    existing.rules = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    expect(reconcileRole(existing, role('edit'))).toEqual({ op: 'none' });
  });

  it('keeps an aggregated role aggregated and ignores the rules the controller filled in', () => {
    const existing: ClusterRole = stored(role('admin'));
    existing.rules = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    expect(reconcileRole(existing, role('admin'))).toEqual({ op: 'none' });

    existing.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { extra: 'true' } }] };
    const out = reconcileRole(existing, role('admin'));
    expect(out.op).toBe('update');
    if (out.op !== 'update') return;
    expect(out.object.aggregationRule?.clusterRoleSelectors).toEqual([
      { matchLabels: { extra: 'true' } },
      { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
    ]);
    expect(out.object.rules).toEqual(existing.rules);
  });

  it('removes an aggregation rule a default role does not have', () => {
    const existing = stored(role('system:monitoring'));
    existing.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] };
    const out = reconcileRole(existing, role('system:monitoring'));
    expect(out.op).toBe('update');
    if (out.op === 'update') expect(out.object.aggregationRule).toBeUndefined();
  });
});

describe('reconcileBinding', () => {
  it('creates a missing binding', () => {
    expect(reconcileBinding(undefined, binding('cluster-admin')).op).toBe('create');
  });

  it('adds missing subjects after the ones a user added', () => {
    const existing = stored(binding('system:public-info-viewer'));
    const mine = { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' };
    existing.subjects = [
      mine,
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
    ];
    const out = reconcileBinding(existing, binding('system:public-info-viewer'));
    expect(out.op).toBe('update');
    if (out.op !== 'update') return;
    expect(out.object.subjects?.map((s) => s.name)).toEqual([
      'alice',
      'system:authenticated',
      'system:unauthenticated',
    ]);
  });

  it('replaces a binding whose roleRef differs', () => {
    const existing: ClusterRoleBinding = stored(binding('system:basic-user'));
    existing.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };
    expect(reconcileBinding(existing, binding('system:basic-user'))).toEqual({
      op: 'recreate',
      object: binding('system:basic-user'),
    });
  });

  it('leaves a binding with autoupdate "false" alone, even with another roleRef and no subjects', () => {
    const existing: RoleBinding = stored(binding('system:discovery'));
    existing.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
    existing.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };
    existing.subjects = [];
    expect(reconcileBinding(existing, binding('system:discovery'))).toEqual({ op: 'none' });
  });

  it('is idempotent: reconciling its own result changes nothing', () => {
    for (const expected of policy.clusterRoleBindings) {
      expect(reconcileBinding(stored(expected), expected)).toEqual({ op: 'none' });
    }
    for (const expected of policy.clusterRoles) {
      expect(reconcileRole(stored(expected), expected)).toEqual({ op: 'none' });
    }
  });
});

describe('the default policy', () => {
  it('holds the reference roles and bindings, labelled and annotated, in the mapped namespaces', () => {
    const names = policy.clusterRoles.map((r) => r.metadata.name);
    for (const n of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:kube-scheduler',
      'system:node',
      'system:controller:clusterrole-aggregation-controller',
    ]) {
      expect(names).toContain(n);
    }
    expect(new Set(names).size).toBe(names.length);
    const everything = [
      ...policy.clusterRoles,
      ...policy.clusterRoleBindings,
      ...policy.roles,
      ...policy.roleBindings,
    ];
    for (const obj of everything) {
      expect(obj.metadata.labels?.['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(obj.metadata.annotations?.[AUTOUPDATE_ANNOTATION]).toBe('true');
    }
    // kube-system only for unmodified reference components (the authentication reader).
    expect(new Set(policy.roles.map((r) => r.metadata.namespace))).toEqual(
      new Set(['platform-system', 'platform-public', 'kube-system']),
    );
    expect(binding('cluster-admin').subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
    ]);
    expect(binding('system:controller:job-controller').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'job-controller', namespace: 'platform-system' },
    ]);
  });
});
