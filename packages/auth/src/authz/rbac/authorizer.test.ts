import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../authn/types.js';
import type { Attributes } from '../types.js';
import { RBACAuthorizer } from './authorizer.js';
import { confirmNoEscalation } from './escalation.js';
import { RbacRuleIndex } from './rule-index.js';
import type { RbacSource } from './sources.js';
import type { ClusterRole, Role, RoleBinding, Subject } from './types.js';

/** An in-memory copy like the server's informers: a list, a synced flag and change listeners. */
class Copy<T> implements RbacSource<T> {
  synced = true;
  private readonly listeners = new Set<() => void>();
  constructor(public items: T[] = []) {}
  list(): Iterable<T> {
    return this.items;
  }
  hasSynced(): boolean {
    return this.synced;
  }
  waitForSync(): Promise<void> {
    return Promise.resolve();
  }
  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  set(items: T[]): void {
    this.items = items;
    for (const l of this.listeners) l();
  }
}

const G = 'rbac.authorization.k8s.io';
const user = (name: string, groups: string[] = ['system:authenticated']): UserInfo => ({
  name,
  uid: '',
  groups,
  extra: {},
});
const clusterRole = (name: string, rules: ClusterRole['rules']): ClusterRole => ({
  metadata: { name },
  rules,
});
const role = (ns: string, name: string, rules: Role['rules']): Role => ({
  metadata: { namespace: ns, name },
  rules,
});
const binding = (name: string, ref: [string, string], subjects: Subject[], ns?: string): RoleBinding => ({
  metadata: ns ? { name, namespace: ns } : { name },
  roleRef: { apiGroup: G, kind: ref[0], name: ref[1] },
  subjects,
});
const U = (name: string): Subject => ({ kind: 'User', apiGroup: G, name });

function attrs(u: UserInfo, verb: string, resource: string, namespace = 'default', name = ''): Attributes {
  return {
    user: u,
    verb,
    isResourceRequest: true,
    path: '',
    namespace,
    apiGroup: '',
    apiVersion: 'v1',
    resource,
    subresource: '',
    name,
  };
}

function setup() {
  const sources = {
    roles: new Copy<Role>([
      role('default', 'pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
    ]),
    roleBindings: new Copy<RoleBinding>(),
    clusterRoles: new Copy<ClusterRole>([
      clusterRole('view-cm', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }]),
      clusterRole('healthz', [{ verbs: ['get'], nonResourceURLs: ['/healthz*'] }]),
    ]),
    clusterRoleBindings: new Copy<RoleBinding>(),
  };
  const index = new RbacRuleIndex();
  index.attach(sources);
  return { sources, authz: new RBACAuthorizer(index) };
}

describe('RBACAuthorizer', () => {
  it('has no opinion until every copy synced', async () => {
    const { sources, authz } = setup();
    sources.clusterRoleBindings.set([binding('all', ['ClusterRole', 'view-cm'], [U('bob')])]);
    sources.roles.synced = false;
    expect(await authz.authorize(attrs(user('bob'), 'list', 'configmaps'))).toEqual({
      decision: 'noOpinion',
      reason: '',
    });
    sources.roles.synced = true;
    expect((await authz.authorize(attrs(user('bob'), 'list', 'configmaps'))).decision).toBe('allow');
  });

  it('allows through a RoleBinding in its namespace only, naming it in the reason', async () => {
    const { sources, authz } = setup();
    sources.roleBindings.set([binding('read', ['Role', 'pod-reader'], [U('bob')], 'default')]);
    expect(await authz.authorize(attrs(user('bob'), 'list', 'pods'))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by RoleBinding "read/default" of Role "pod-reader" to User "bob"',
    });
    expect((await authz.authorize(attrs(user('bob'), 'list', 'pods', 'other'))).decision).toBe('noOpinion');
    expect((await authz.authorize(attrs(user('bob'), 'delete', 'pods'))).decision).toBe('noOpinion');
    expect((await authz.authorize(attrs(user('eve'), 'list', 'pods'))).decision).toBe('noOpinion');
    // Deleted: the permission goes with it.
    sources.roleBindings.set([]);
    expect((await authz.authorize(attrs(user('bob'), 'list', 'pods'))).decision).toBe('noOpinion');
  });

  it('a RoleBinding to a ClusterRole grants it in the binding namespace only', async () => {
    const { sources, authz } = setup();
    sources.roleBindings.set([binding('cm', ['ClusterRole', 'view-cm'], [U('bob')], 'team')]);
    expect((await authz.authorize(attrs(user('bob'), 'get', 'configmaps', 'team'))).decision).toBe('allow');
    expect((await authz.authorize(attrs(user('bob'), 'get', 'configmaps', 'default'))).decision).toBe(
      'noOpinion',
    );
    expect((await authz.authorize(attrs(user('bob'), 'get', 'configmaps', ''))).decision).toBe('noOpinion');
  });

  it('matches groups and service accounts (namespace defaulted to a RoleBinding’s)', async () => {
    const { sources, authz } = setup();
    sources.clusterRoleBindings.set([
      binding('devs', ['ClusterRole', 'view-cm'], [{ kind: 'Group', apiGroup: G, name: 'dev' }]),
    ]);
    sources.roleBindings.set([
      binding('sa', ['Role', 'pod-reader'], [{ kind: 'ServiceAccount', name: 'robot' }], 'default'),
    ]);
    expect(await authz.authorize(attrs(user('carol', ['dev']), 'get', 'configmaps', ''))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "devs" of ClusterRole "view-cm" to Group "dev"',
    });
    const robot = user('system:serviceaccount:default:robot', ['system:serviceaccounts']);
    expect(await authz.authorize(attrs(robot, 'get', 'pods'))).toEqual({
      decision: 'allow',
      reason:
        'RBAC: allowed by RoleBinding "sa/default" of Role "pod-reader" to ServiceAccount "robot/default"',
    });
    const other = user('system:serviceaccount:other:robot');
    expect((await authz.authorize(attrs(other, 'get', 'pods'))).decision).toBe('noOpinion');
  });

  it('non-resource URLs through a ClusterRoleBinding', async () => {
    const { sources, authz } = setup();
    sources.clusterRoleBindings.set([binding('hz', ['ClusterRole', 'healthz'], [U('bob')])]);
    const get = (path: string) => ({
      ...attrs(user('bob'), 'get', ''),
      isResourceRequest: false,
      path,
      namespace: '',
    });
    expect((await authz.authorize(get('/healthz/ping'))).decision).toBe('allow');
    expect((await authz.authorize(get('/metrics'))).decision).toBe('noOpinion');
  });

  it('names missing roles in the reason when nothing allows', async () => {
    const { sources, authz } = setup();
    sources.clusterRoleBindings.set([binding('gone', ['ClusterRole', 'nope'], [U('bob')])]);
    sources.roleBindings.set([binding('gone2', ['Role', 'nope2'], [U('bob')], 'default')]);
    expect(await authz.authorize(attrs(user('bob'), 'get', 'pods'))).toEqual({
      decision: 'noOpinion',
      reason:
        'RBAC: [clusterrole.rbac.authorization.k8s.io "nope" not found, role.rbac.authorization.k8s.io "nope2" not found]',
    });
  });

  it('lists the rules a user holds (SelfSubjectRulesReview)', async () => {
    const { sources, authz } = setup();
    sources.clusterRoleBindings.set([binding('hz', ['ClusterRole', 'healthz'], [U('bob')])]);
    sources.roleBindings.set([binding('read', ['Role', 'pod-reader'], [U('bob')], 'default')]);
    expect(await authz.rulesFor(user('bob'), 'default')).toEqual({
      resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz*'] }],
      incomplete: false,
    });
    expect((await authz.rulesFor(user('bob'), 'other')).resourceRules).toEqual([]);
  });

  it('refuses to grant rules not held, with the real message', () => {
    const { sources, authz } = setup();
    sources.roleBindings.set([binding('read', ['Role', 'pod-reader'], [U('bob')], 'default')]);
    const bob = user('bob');
    expect(
      confirmNoEscalation(authz, bob, 'default', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
    ).toBeUndefined();
    expect(
      confirmNoEscalation(authz, bob, 'default', [
        { verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods', 'secrets'] },
      ]),
    ).toBe(
      'user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    );
  });
});
