import { describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import type { Attributes, Authorizer } from '../authz/types.js';
import { impersonate, impersonationRequests, stripImpersonationHeaders } from './impersonation.js';
import type { UserInfo } from './types.js';

const req = (...pairs: string[]) => {
  const headers: Record<string, string | string[] | undefined> = {};
  for (let i = 0; i < pairs.length; i += 2) headers[(pairs[i] ?? '').toLowerCase()] = pairs[i + 1];
  return { headers, rawHeaders: pairs };
};

const bob: UserInfo = { name: 'bob', uid: '', groups: ['system:authenticated'], extra: {} };

/** Allows what `allowed` says and records every question. */
function recording(allowed: (a: Attributes) => boolean): Authorizer & { asked: Attributes[] } {
  const asked: Attributes[] = [];
  return {
    asked,
    authorize: (a) => {
      asked.push(a);
      return Promise.resolve(
        allowed(a) ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: 'no' },
      );
    },
  };
}

describe('impersonationRequests', () => {
  it('reads a service account user only when its namespace and name are valid', () => {
    const parts = (user: string) => {
      const r = impersonationRequests(req('Impersonate-User', user));
      if (r instanceof StatusError) throw r;
      return r.map((p) => [p.kind, p.namespace, p.name]);
    };
    expect(parts('system:serviceaccount:ci:builder')).toEqual([['ServiceAccount', 'ci', 'builder']]);
    expect(parts('system:serviceaccount:ci:a:b')).toEqual([['User', '', 'system:serviceaccount:ci:a:b']]);
    expect(parts('system:serviceaccount:CI:builder')).toEqual([
      ['User', '', 'system:serviceaccount:CI:builder'],
    ]);
  });

  it('keeps a malformed escape in an extra key as it is, lower-cased', () => {
    const r = impersonationRequests(req('Impersonate-User', 'u', 'Impersonate-Extra-A%zZ', 'v'));
    expect(r).toMatchObject([{ kind: 'User' }, { kind: 'UserExtra', name: 'v', fieldPath: 'a%zz' }]);
  });

  it('returns nothing for a request that does not impersonate', () => {
    expect(impersonationRequests(req('Authorization', 'Bearer x'))).toEqual([]);
  });
});

describe('impersonate', () => {
  it('asks about each part in order and stops at the first refusal', async () => {
    const authz = recording((a) => a.resource !== 'groups');
    const parts = impersonationRequests(
      req('Impersonate-User', 'jane', 'Impersonate-Group', 'g', 'Impersonate-Uid', '1'),
    );
    if (parts instanceof StatusError) throw parts;
    const out = await impersonate(bob, parts, authz);
    expect(authz.asked.map((a) => [a.verb, a.resource, a.name])).toEqual([
      ['impersonate', 'users', 'jane'],
      ['impersonate', 'groups', 'g'],
    ]);
    expect('error' in out && out.error.message).toBe(
      'groups "g" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope: no',
    );
  });

  it('checks uids and extras in authentication.k8s.io with the extra key as subresource', async () => {
    const authz = recording(() => true);
    const parts = impersonationRequests(
      req('Impersonate-User', 'jane', 'Impersonate-Extra-Scopes', 's', 'Impersonate-Uid', '1'),
    );
    if (parts instanceof StatusError) throw parts;
    expect(await impersonate(bob, parts, authz)).toEqual({
      user: { name: 'jane', uid: '1', groups: ['system:authenticated'], extra: { scopes: ['s'] } },
    });
    expect(
      authz.asked.slice(1).map((a) => [a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name]),
    ).toEqual([
      ['authentication.k8s.io', 'v1', 'userextras', 'scopes', 's'],
      ['authentication.k8s.io', 'v1', 'uids', '', '1'],
    ]);
  });
});

describe('stripImpersonationHeaders', () => {
  it('removes every Impersonate-* header and nothing else', () => {
    const r = req('Impersonate-User', 'u', 'impersonate-extra-x', 'v', 'Impersonate-Uid', '1', 'Accept', 'a');
    stripImpersonationHeaders(r);
    expect(r.rawHeaders).toEqual(['Accept', 'a']);
    expect(r.headers).toEqual({ accept: 'a' });
  });
});
