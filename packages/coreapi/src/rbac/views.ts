/**
 * The four rbac.authorization.k8s.io/v1 resources as served (pkg/registry/rbac/*: strategy.go,
 * printers.go). Every strategy allows create-on-update (`kubectl auth reconcile` and apply PUT
 * objects that may not exist yet) and unconditional updates; none has a status.
 */
import { defaultMetaFieldLabels } from '@keel/apimachinery';
import { rbac } from '@keel/auth';
import {
  ageColumn,
  beforeCreate,
  beforeUpdate,
  column,
  nameColumn,
  since,
  wireCodec,
  type StructSpec,
  type TableColumn,
} from '@keel/resource';
import type { CoreResourceView } from '../view.js';
import { groupTarget } from '../scheme.js';
import {
  clusterRoleBindingSpec,
  clusterRoleSpec,
  defaultBinding,
  roleBindingSpec,
  roleSpec,
} from './schema.js';
import {
  validateBinding,
  validateBindingUpdate,
  validateRole,
  validateRoleUpdate,
  type BindingObject,
  type RoleObject,
} from './validation.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const META_SMP = {
  'metadata.finalizers': { patchStrategy: 'merge' },
  'metadata.ownerReferences': 'uid',
} as const;

interface Names {
  readonly kind: string;
  readonly resource: string;
  readonly namespaced: boolean;
  readonly storageVersionHash: string;
}

function common<I extends RoleObject | BindingObject>(
  names: Names,
  spec: StructSpec,
  defaults?: (obj: I) => void,
) {
  const { kind, resource, namespaced } = names;
  return {
    group: rbac.RBAC_GROUP,
    version: 'v1',
    apiVersion: `${rbac.RBAC_GROUP}/v1`,
    resource,
    kind,
    listKind: `${kind}List`,
    singular: kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced,
    verbs: VERBS,
    storageVersionHash: names.storageVersionHash,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    invalidKind: { group: rbac.RBAC_GROUP, kind },
    smpSchema: META_SMP,
    ...wireCodec<I>(groupTarget(rbac.RBAC_GROUP, kind), spec, defaults),
    prepareForCreate: () => undefined,
    prepareForUpdate: () => undefined,
    fieldLabels: ['metadata.name', 'metadata.namespace'],
    convertFieldLabel: defaultMetaFieldLabels,
    fields: (obj: I) => ({
      'metadata.name': obj.metadata.name ?? '',
      'metadata.namespace': obj.metadata.namespace ?? '',
    }),
  };
}

const createdAt = column('Created At', ageColumn.description, 0, 'date');

/** printRole's convertToHumanReadableDateType: RFC 3339 in UTC, `<unknown>` when unset. */
function createdAtCell(timestamp: string | undefined): string {
  if (!timestamp) return '<unknown>';
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? timestamp : d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function roleView(names: Names, spec: StructSpec): CoreResourceView<RoleObject> {
  const { namespaced } = names;
  return {
    ...common<RoleObject>(names, spec),
    validateCreate: (r) => beforeCreate(validateRole(r, namespaced), r.metadata, namespaced),
    validateUpdate: (r, old) =>
      beforeUpdate(r.metadata, old.metadata, namespaced, validateRoleUpdate(r, old, namespaced)),
    tableColumns: [nameColumn, createdAt],
    tableRow: (r) => [r.metadata.name ?? '', createdAtCell(r.metadata.creationTimestamp)],
  };
}

function bindingColumns(roleRefDoc: string, what: string): TableColumn[] {
  return [
    nameColumn,
    column('Role', roleRefDoc),
    ageColumn,
    column('Users', `Users in the ${what}`, 1),
    column('Groups', `Groups in the ${what}`, 1),
    column('ServiceAccounts', `ServiceAccounts in the ${what}`, 1),
  ];
}

/** rbac.SubjectsStrings: users, groups and `namespace/name` service accounts, each joined by `, `. */
function subjectCells(subjects: readonly rbac.Subject[] | undefined): string[] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects ?? []) {
    if (s.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name}`);
    else if (s.kind === 'User') users.push(s.name);
    else if (s.kind === 'Group') groups.push(s.name);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

function bindingView(
  names: Names,
  spec: StructSpec,
  columns: TableColumn[],
): CoreResourceView<BindingObject> {
  const { namespaced } = names;
  return {
    ...common<BindingObject>(names, spec, defaultBinding),
    validateCreate: (b) => beforeCreate(validateBinding(b, namespaced), b.metadata, namespaced),
    validateUpdate: (b, old) =>
      beforeUpdate(b.metadata, old.metadata, namespaced, validateBindingUpdate(b, old, namespaced)),
    tableColumns: columns,
    tableRow: (b, now) => [
      b.metadata.name ?? '',
      `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`,
      since(b.metadata.creationTimestamp, now),
      ...subjectCells(b.subjects),
    ],
  };
}

const roleRefDocs = {
  binding:
    'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
  cluster:
    'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
};

export const rbacRoleView = roleView(
  { kind: 'Role', resource: 'roles', namespaced: true, storageVersionHash: '7FuwZcIIItM=' },
  roleSpec,
);

export const rbacClusterRoleView = roleView(
  { kind: 'ClusterRole', resource: 'clusterroles', namespaced: false, storageVersionHash: 'bYE5ZWDrJ44=' },
  clusterRoleSpec,
);

export const rbacRoleBindingView = bindingView(
  { kind: 'RoleBinding', resource: 'rolebindings', namespaced: true, storageVersionHash: 'eGsCzGH6b1g=' },
  roleBindingSpec,
  bindingColumns(roleRefDocs.binding, 'roleBinding'),
);

export const rbacClusterRoleBindingView = bindingView(
  {
    kind: 'ClusterRoleBinding',
    resource: 'clusterrolebindings',
    namespaced: false,
    storageVersionHash: '48tpQ8gZHFc=',
  },
  clusterRoleBindingSpec,
  bindingColumns(roleRefDocs.cluster, 'clusterRoleBinding'),
);
