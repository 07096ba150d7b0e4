import type { Authorizer, Decision } from '@keel/auth';
import { isDeepStrictEqual } from 'node:util';
import type { AdmissionAttributes, AdmittedObject, GroupVersionKind } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';

interface OwnerReference {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly blockOwnerDeletion?: boolean;
}

export interface OwnerReferencesDeps {
  readonly authorizer: Authorizer;
  /** The resources serving a kind (kube's RESTMapper); empty when none does. */
  resourcesFor(kind: GroupVersionKind): readonly string[];
}

function ownersOf(obj: AdmittedObject | undefined): readonly OwnerReference[] {
  const refs = (obj?.metadata as { ownerReferences?: unknown } | undefined)?.ownerReferences;
  return Array.isArray(refs) ? (refs as OwnerReference[]) : [];
}

function isChangingOwners(attrs: AdmissionAttributes): boolean {
  const now = ownersOf(attrs.object);
  if (!attrs.oldObject) return now.length > 0;
  return !isDeepStrictEqual(
    JSON.parse(JSON.stringify(now)),
    JSON.parse(JSON.stringify(ownersOf(attrs.oldObject))),
  );
}

/** References that now block their owner's deletion and did not before (new, or flipped to true). */
function newlyBlocking(attrs: AdmissionAttributes): OwnerReference[] {
  const blocking = ownersOf(attrs.object).filter((r) => r.blockOwnerDeletion === true);
  if (!attrs.oldObject) return blocking;
  const before = new Map(ownersOf(attrs.oldObject).map((r) => [r.uid ?? '', r]));
  return blocking.filter((r) => before.get(r.uid ?? '')?.blockOwnerDeletion !== true);
}

function splitApiVersion(apiVersion: string): { group: string; version: string } | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return undefined;
}

/** Go prints the authorizer's error with %v: `<nil>` when there is none. */
const why = (d: Decision) => `${d.reason}, ${d.error ?? '<nil>'}`;

/**
 * OwnerReferencesPermissionEnforcement: only a user who may delete an object may change its
 * ownerReferences (the garbage collector would delete it for them), and only one who may update
 * an owner's `finalizers` may make a reference block that owner's deletion. pods/status is exempt
 * as upstream: its strategy keeps ownerReferences as they were.
 */
export function ownerReferencesPermissionEnforcement(deps: OwnerReferencesDeps): AdmissionPlugin {
  return {
    name: 'OwnerReferencesPermissionEnforcement',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(attrs) {
      if (attrs.resource.group === '' && attrs.resource.resource === 'pods' && attrs.subresource === 'status')
        return;
      if (!isChangingOwners(attrs)) return;
      const base = { user: attrs.user, isResourceRequest: true, path: '', namespace: attrs.namespace };
      const mayDelete = await deps.authorizer.authorize({
        ...base,
        verb: 'delete',
        apiGroup: attrs.resource.group,
        apiVersion: attrs.resource.version,
        resource: attrs.resource.resource,
        subresource: attrs.subresource,
        name: attrs.name,
      });
      if (mayDelete.decision !== 'allow')
        throw admissionForbidden(
          attrs,
          `cannot set an ownerRef on a resource you can't delete: ${why(mayDelete)}`,
        );
      for (const ref of newlyBlocking(attrs)) {
        const gv = splitApiVersion(ref.apiVersion ?? '');
        const resources = gv
          ? deps.resourcesFor({ group: gv.group, version: gv.version, kind: ref.kind ?? '' })
          : [];
        if (!gv || resources.length === 0) {
          const problem = gv
            ? `no matches for kind ${JSON.stringify(ref.kind ?? '')} in version ${JSON.stringify(ref.apiVersion ?? '')}`
            : `unexpected GroupVersion string: ${ref.apiVersion ?? ''}`;
          throw admissionForbidden(
            attrs,
            `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion ?? ''} Kind ${ref.kind ?? ''}: ${problem}`,
          );
        }
        for (const resource of resources) {
          const maySetFinalizers = await deps.authorizer.authorize({
            ...base,
            verb: 'update',
            apiGroup: gv.group,
            apiVersion: gv.version,
            resource,
            subresource: 'finalizers',
            name: ref.name ?? '',
          });
          if (maySetFinalizers.decision !== 'allow')
            throw admissionForbidden(
              attrs,
              `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${why(maySetFinalizers)}`,
            );
        }
      }
    },
  };
}
