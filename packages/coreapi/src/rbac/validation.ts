/**
 * pkg/apis/rbac/validation: names are only path segments, rules need verbs and either resources
 * (with groups) or non-resource URLs (cluster roles only), bindings name a role in the RBAC group
 * and their subjects follow the User/Group/ServiceAccount rules. A binding's roleRef never changes.
 */
import {
  FieldPath,
  invalidValue,
  nameIsDNSSubdomain,
  notSupported,
  required,
  validatePathSegmentName,
  type FieldError,
} from '@keel/apimachinery';
import { rbac } from '@keel/auth';
import { validateCoreMeta, validateCoreMetaUpdate, type ObjectMeta } from '@keel/resource';

type Meta = { metadata: ObjectMeta };
export type RoleObject = Meta & Omit<rbac.ClusterRole, 'metadata'>;
export type BindingObject = Meta & Omit<rbac.RoleBinding, 'metadata'>;

function validatePolicyRule(rule: rbac.PolicyRule, namespaced: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((rule.verbs ?? []).length === 0)
    errs.push(required(p.child('verbs'), 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (namespaced)
      errs.push(
        invalidValue(p.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'),
      );
    if (
      (rule.apiGroups ?? []).length > 0 ||
      (rule.resources ?? []).length > 0 ||
      (rule.resourceNames ?? []).length > 0
    )
      errs.push(
        invalidValue(
          p.child('nonResourceURLs'),
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return errs;
  }
  if ((rule.apiGroups ?? []).length === 0)
    errs.push(required(p.child('apiGroups'), 'resource rules must supply at least one api group'));
  const resources = rule.resources ?? [];
  if (resources.length === 0)
    errs.push(required(p.child('resources'), 'resource rules must supply at least one resource'));
  if ((rule.resourceNames ?? []).length > 0 && resources.length > 1)
    errs.push(required(p.child('resourceNames'), 'resource names cannot apply to multiple resources'));
  return errs;
}

/** ValidateRole / ValidateClusterRole. */
export function validateRole(role: RoleObject, namespaced: boolean): FieldError[] {
  const errs = validateCoreMeta(role.metadata, namespaced, validatePathSegmentName);
  (role.rules ?? []).forEach((rule, i) =>
    errs.push(...validatePolicyRule(rule, namespaced, FieldPath.of('rules').index(i))),
  );
  return errs;
}

export function validateRoleUpdate(role: RoleObject, old: RoleObject, namespaced: boolean): FieldError[] {
  return [...validateRole(role, namespaced), ...validateCoreMetaUpdate(role.metadata, old.metadata)];
}

function validateSubject(s: rbac.Subject, namespaced: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = s.name ?? '';
  const apiGroup = s.apiGroup ?? '';
  if (name === '') errs.push(required(p.child('name')));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name !== '')
        for (const msg of nameIsDNSSubdomain(name, false))
          errs.push(invalidValue(p.child('name'), name, msg));
      if (apiGroup !== '') errs.push(notSupported(p.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && !s.namespace) errs.push(required(p.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (name === '')
        errs.push(
          invalidValue(p.child('name'), name, `${s.kind === 'User' ? 'user' : 'group'} name cannot be empty`),
        );
      if (apiGroup !== rbac.RBAC_GROUP)
        errs.push(notSupported(p.child('apiGroup'), apiGroup, [rbac.RBAC_GROUP]));
      break;
    default:
      errs.push(notSupported(p.child('kind'), s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/** ValidateRoleBinding / ValidateClusterRoleBinding. */
export function validateBinding(b: BindingObject, namespaced: boolean): FieldError[] {
  const errs = validateCoreMeta(b.metadata, namespaced, validatePathSegmentName);
  const ref = FieldPath.of('roleRef');
  const { apiGroup = '', kind = '', name = '' } = b.roleRef ?? {};
  if (apiGroup !== rbac.RBAC_GROUP)
    errs.push(notSupported(ref.child('apiGroup'), apiGroup, [rbac.RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(kind)) errs.push(notSupported(ref.child('kind'), kind, kinds));
  if (name === '') errs.push(required(ref.child('name')));
  else
    for (const msg of validatePathSegmentName(name, false))
      errs.push(invalidValue(ref.child('name'), name, msg));
  (b.subjects ?? []).forEach((s, i) =>
    errs.push(...validateSubject(s, namespaced, FieldPath.of('subjects').index(i))),
  );
  return errs;
}

/** The internal RoleRef as Go prints it in the `cannot change roleRef` error (no JSON tags). */
function internalRoleRef(r: rbac.RoleRef | undefined): Record<string, string> {
  return { APIGroup: r?.apiGroup ?? '', Kind: r?.kind ?? '', Name: r?.name ?? '' };
}

export function validateBindingUpdate(
  b: BindingObject,
  old: BindingObject,
  namespaced: boolean,
): FieldError[] {
  const errs = [...validateBinding(b, namespaced), ...validateCoreMetaUpdate(b.metadata, old.metadata)];
  const [a, o] = [b.roleRef, old.roleRef];
  if (a?.apiGroup !== o?.apiGroup || a?.kind !== o?.kind || a?.name !== o?.name)
    errs.push(invalidValue(FieldPath.of('roleRef'), internalRoleRef(a), 'cannot change roleRef'));
  return errs;
}
