import { fieldErrorString } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import {
  rbacClusterRoleBindingView,
  rbacClusterRoleView,
  rbacRoleBindingView,
  rbacRoleView,
} from './index.js';

const G = 'rbac.authorization.k8s.io';
const messages = (errs: { field: string }[]) =>
  errs.map((e) => fieldErrorString(e as Parameters<typeof fieldErrorString>[0]));

describe('RBAC validation (pkg/apis/rbac/validation)', () => {
  it.each([
    [
      'verbs required',
      rbacRoleView,
      [{ apiGroups: [''], resources: ['pods'] }],
      ['rules[0].verbs: Required value: verbs must contain at least one value'],
    ],
    [
      'groups and resources required',
      rbacRoleView,
      [{ verbs: ['get'] }],
      [
        'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
        'rules[0].resources: Required value: resource rules must supply at least one resource',
      ],
    ],
    [
      'names with several resources',
      rbacRoleView,
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods', 'services'], resourceNames: ['a'] }],
      ['rules[0].resourceNames: Required value: resource names cannot apply to multiple resources'],
    ],
    [
      'URLs in a Role',
      rbacRoleView,
      [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
      ['rules[0].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs'],
    ],
    [
      'URLs with resources',
      rbacClusterRoleView,
      [{ verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/x'] }],
      [
        'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
      ],
    ],
    ['URLs in a ClusterRole', rbacClusterRoleView, [{ verbs: ['get'], nonResourceURLs: ['/x'] }], []],
  ])('%s', (_name, view, rules, want) => {
    const namespaced = view === rbacRoleView;
    // Bodies as clients send them, required fields missing included.
    const role = { metadata: { name: 'r', ...(namespaced ? { namespace: 'default' } : {}) }, rules } as never;
    expect(messages(view.validateCreate(role))).toEqual(want);
  });

  it('names are path segments', () => {
    expect(
      messages(rbacClusterRoleView.validateCreate({ metadata: { name: 'system:a/b' }, rules: [] })),
    ).toEqual(['metadata.name: Invalid value: "system:a/b": may not contain \'/\'']);
    expect(
      messages(rbacClusterRoleView.validateCreate({ metadata: { name: 'system:controller:x' }, rules: [] })),
    ).toEqual([]);
  });

  const binding = (roleRef: Record<string, string>, subjects: unknown[], namespace?: string) =>
    ({
      metadata: { name: 'b', resourceVersion: '1', ...(namespace ? { namespace } : {}) },
      roleRef,
      subjects,
    }) as never;

  it.each([
    [
      'a ClusterRoleBinding names only ClusterRoles',
      rbacClusterRoleBindingView,
      { apiGroup: G, kind: 'Role', name: 'r' },
      [],
      ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    ],
    [
      'roleRef group and name',
      rbacRoleBindingView,
      { apiGroup: 'x', kind: 'Role', name: '' },
      [],
      [
        'roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
        'roleRef.name: Required value',
      ],
    ],
    [
      'subject kinds',
      rbacRoleBindingView,
      { apiGroup: G, kind: 'Role', name: 'r' },
      [{ kind: 'Robot', name: 'x' }],
      ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
    ],
    [
      'a User needs the RBAC group',
      rbacRoleBindingView,
      { apiGroup: G, kind: 'Role', name: 'r' },
      [{ kind: 'User', apiGroup: 'x', name: 'u' }],
      ['subjects[0].apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"'],
    ],
    [
      'a ServiceAccount has no group and, cluster-wide, a namespace',
      rbacClusterRoleBindingView,
      { apiGroup: G, kind: 'ClusterRole', name: 'r' },
      [{ kind: 'ServiceAccount', apiGroup: G, name: 'Bad_Name' }],
      [
        "subjects[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
        'subjects[0].namespace: Required value',
      ],
    ],
  ])('%s', (_name, view, roleRef, subjects, want) => {
    const namespaced = view === rbacRoleBindingView;
    expect(
      messages(view.validateCreate(binding(roleRef, subjects, namespaced ? 'default' : undefined))),
    ).toEqual(want);
  });

  it('defaults the groups of roleRef and of User and Group subjects', () => {
    const { object } = rbacRoleBindingView.decode({
      apiVersion: `${G}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'default' },
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'u' },
        { kind: 'Group', name: 'g' },
        { kind: 'ServiceAccount', name: 's' },
      ],
    });
    expect(object.roleRef).toEqual({ apiGroup: G, kind: 'Role', name: 'r' });
    expect(object.subjects?.map((s) => s.apiGroup ?? '')).toEqual([G, G, '']);
  });

  it('roleRef cannot change', () => {
    const old = binding({ apiGroup: G, kind: 'ClusterRole', name: 'view' }, [], 'default') as {
      metadata: object;
    };
    const changed = binding({ apiGroup: G, kind: 'ClusterRole', name: 'edit' }, [], 'default');
    expect(messages(rbacRoleBindingView.validateUpdate(changed, old as never))).toEqual([
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef',
    ]);
  });

  it('prints the binding table row with subjects by kind', () => {
    const b = {
      metadata: { name: 'b', creationTimestamp: '2026-01-01T00:00:00Z' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', apiGroup: G, name: 'u1' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
        { kind: 'User', apiGroup: G, name: 'u2' },
        { kind: 'Group', apiGroup: G, name: 'g' },
      ],
    };
    expect(rbacClusterRoleBindingView.tableRow(b, new Date('2026-01-01T00:01:00Z'))).toEqual([
      'b',
      'ClusterRole/view',
      '60s',
      'u1, u2',
      'g',
      'ns/sa',
    ]);
    expect(
      rbacRoleView.tableRow(
        { metadata: { name: 'r', creationTimestamp: '2026-01-01T00:00:00Z' } },
        new Date(),
      ),
    ).toEqual(['r', '2026-01-01T00:00:00Z']);
  });
});
