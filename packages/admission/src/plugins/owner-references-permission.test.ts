import type { StatusError } from '@keel/apimachinery';
import type { Attributes } from '@keel/auth';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../index.js';
import { chainOf, depsOf } from '../testing/index.js';

type Ref = { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean };

/** Allows exactly the "verb resource/subresource" strings given; records every question. */
function authorizerAllowing(...allowed: string[]) {
  const asked: string[] = [];
  return {
    asked,
    authorize(a: Attributes) {
      const what = `${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ''} ${a.namespace}/${a.name}`;
      asked.push(what);
      const ok = allowed.some((p) => what.startsWith(p));
      return Promise.resolve({
        decision: ok ? ('allow' as const) : ('noOpinion' as const),
        reason: ok ? '' : 'no rule',
      });
    },
  };
}

function write(
  refs: Ref[] | undefined,
  oldRefs?: Ref[],
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  const obj = (r: Ref[] | undefined) => ({
    metadata: { name: 'cm', namespace: 'ns', ...(r ? { ownerReferences: r } : {}) },
  });
  return {
    operation: oldRefs ? 'UPDATE' : 'CREATE',
    resource: { group: '', version: 'v1', resource: 'configmaps' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'ConfigMap' },
    namespace: 'ns',
    name: 'cm',
    object: obj(refs),
    oldObject: oldRefs ? obj(oldRefs) : undefined,
    user: { name: 'alice', uid: '', groups: [], extra: {} },
    dryRun: false,
    ...over,
  };
}

const owner: Ref = { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u1' };
const blocking: Ref = { ...owner, blockOwnerDeletion: true };

async function outcome(
  authz: ReturnType<typeof authorizerAllowing>,
  attrs: AdmissionAttributes,
  resourcesFor?: () => string[],
) {
  const chain = chainOf(
    ['OwnerReferencesPermissionEnforcement'],
    depsOf({}, { authorizer: authz, ...(resourcesFor ? { resourcesFor } : {}) }),
  );
  try {
    await chain.validate(attrs);
    return 'ok';
  } catch (err) {
    const s = (err as StatusError).status;
    return `${s.code} ${s.message}`;
  }
}

describe('OwnerReferencesPermissionEnforcement', () => {
  it('lets writes that leave ownerReferences alone through without asking', async () => {
    const authz = authorizerAllowing();
    expect(await outcome(authz, write(undefined))).toBe('ok');
    expect(await outcome(authz, write([owner], [owner]))).toBe('ok');
    expect(authz.asked).toEqual([]);
  });

  it('needs delete on the object to set or change its owners', async () => {
    expect(await outcome(authorizerAllowing(), write([owner]))).toBe(
      `403 configmaps "cm" is forbidden: cannot set an ownerRef on a resource you can't delete: no rule, <nil>`,
    );
    expect(await outcome(authorizerAllowing(), write([], [owner]))).toContain("can't delete");
    expect(await outcome(authorizerAllowing('delete /configmaps ns/cm'), write([owner]))).toBe('ok');
  });

  it("needs update on the owner's finalizers to block its deletion", async () => {
    const onlyDelete = authorizerAllowing('delete /configmaps ns/cm');
    expect(await outcome(onlyDelete, write([blocking]), () => ['pods'])).toBe(
      `403 configmaps "cm" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: no rule, <nil>`,
    );
    expect(onlyDelete.asked).toEqual(['delete /configmaps ns/cm', 'update /pods/finalizers ns/p']);
    const both = authorizerAllowing('delete /configmaps ns/cm', 'update /pods/finalizers ns/p');
    expect(await outcome(both, write([blocking]), () => ['pods'])).toBe('ok');
    // Already blocking before: nothing new to check on the owner.
    const again = authorizerAllowing('delete /configmaps ns/cm');
    expect(await outcome(again, write([blocking, { ...owner, uid: 'u2' }], [blocking]), () => ['pods'])).toBe(
      'ok',
    );
  });

  it('refuses blocking an owner whose kind no served resource has', async () => {
    const authz = authorizerAllowing('delete');
    expect(
      await outcome(authz, write([{ ...blocking, apiVersion: 'example.com/v1', kind: 'Widget' }]), () => []),
    ).toBe(
      `403 configmaps "cm" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"`,
    );
  });

  it('leaves pods/status alone', async () => {
    const attrs = write([owner], undefined, {
      resource: { group: '', version: 'v1', resource: 'pods' },
      subresource: 'status',
    });
    expect(await outcome(authorizerAllowing(), attrs)).toBe('ok');
  });
});
