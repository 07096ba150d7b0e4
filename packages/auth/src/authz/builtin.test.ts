import { describe, expect, it } from 'vitest';
import {
  AlwaysAllowAuthorizer,
  AlwaysDenyAuthorizer,
  PrivilegedGroupAuthorizer,
  UnionAuthorizer,
} from './builtin.js';
import type { Attributes, Authorizer, Decision } from './types.js';

const attrs = (groups: string[]): Attributes => ({
  user: { name: 'bob', uid: '', groups, extra: {} },
  verb: 'get',
  isResourceRequest: false,
  path: '/healthz',
  namespace: '',
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  name: '',
});
const fixed = (d: Decision): Authorizer & { calls: number } => {
  const a = {
    calls: 0,
    authorize: () => {
      a.calls++;
      return Promise.resolve(d);
    },
  };
  return a;
};
const allow: Decision = { decision: 'allow', reason: '' };
const deny = (reason: string): Decision => ({ decision: 'deny', reason });
const none = (reason = ''): Decision => ({ decision: 'noOpinion', reason });

describe('built-in authorizers', () => {
  it.each<[string, Authorizer, string[], Decision]>([
    ['AlwaysAllow', new AlwaysAllowAuthorizer(), [], allow],
    [
      'AlwaysDeny is a NoOpinion with its reason',
      new AlwaysDenyAuthorizer(),
      ['system:masters'],
      none('Everything is forbidden.'),
    ],
    ['system:masters is allowed', new PrivilegedGroupAuthorizer(), ['dev', 'system:masters'], allow],
    ['others get no opinion', new PrivilegedGroupAuthorizer(), ['dev', 'system:authenticated'], none()],
    ['a custom privileged group', new PrivilegedGroupAuthorizer(['ops']), ['ops'], allow],
  ])('%s', async (_name, authz, groups, expected) => {
    expect(await authz.authorize(attrs(groups))).toEqual(expected);
  });
});

describe('UnionAuthorizer', () => {
  it.each<[string, Decision[], Decision]>([
    ['empty chain', [], none()],
    ['first allow wins', [none('a'), allow, deny('x')], allow],
    ['first deny wins', [none(), deny('no'), allow], deny('no')],
    ['NoOpinion everywhere joins the reasons', [none('a'), none(''), none('b')], none('a\nb')],
    [
      'AlwaysDeny then AlwaysAllow allows (AlwaysDeny is only a NoOpinion)',
      [none('Everything is forbidden.'), allow],
      allow,
    ],
    [
      'errors are kept when nothing allows',
      [{ decision: 'noOpinion', reason: '', error: 'webhook down' }, none('x')],
      { decision: 'noOpinion', reason: 'x', error: 'webhook down' },
    ],
    [
      'several errors aggregate',
      [
        { decision: 'noOpinion', reason: '', error: 'e1' },
        { decision: 'noOpinion', reason: '', error: 'e2' },
      ],
      { decision: 'noOpinion', reason: '', error: '[e1, e2]' },
    ],
  ])('%s', async (_name, decisions, expected) => {
    expect(await new UnionAuthorizer(decisions.map(fixed)).authorize(attrs([]))).toEqual(expected);
  });

  it('does not ask past the first decision', async () => {
    const later = fixed(allow);
    await new UnionAuthorizer([fixed(deny('x')), later]).authorize(attrs([]));
    expect(later.calls).toBe(0);
  });
});
