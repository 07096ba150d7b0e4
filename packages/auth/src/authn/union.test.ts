import { describe, expect, it } from 'vitest';
import { plainRequest } from '../testing/tls.js';
import { aggregateErrors } from './aggregate.js';
import {
  newAuthenticationContext,
  type AuthenticationResult,
  type Authenticator,
  type TokenAuthenticator,
  type UserInfo,
} from './types.js';
import {
  AnonymousAuthenticator,
  AuthenticatedGroupAdder,
  FallbackOnNoCredentials,
  UnionAuthenticator,
  UnionTokenAuthenticator,
} from './union.js';

const user = (name: string, groups: string[] = []): UserInfo => ({ name, uid: '', groups, extra: {} });
const fixed = (r: AuthenticationResult): Authenticator & { calls: number } => {
  const a = {
    calls: 0,
    authenticate: () => {
      a.calls++;
      return Promise.resolve(r);
    },
  };
  return a;
};
const req = plainRequest([]);

describe('UnionAuthenticator', () => {
  it.each<[string, AuthenticationResult[], AuthenticationResult]>([
    ['nothing configured', [], undefined],
    ['nobody applies', [undefined, undefined], undefined],
    ['the first user wins', [{ user: user('a') }, { user: user('b') }], { user: user('a') }],
    ['a user after an error still wins', [{ error: 'bad cert' }, { user: user('b') }], { user: user('b') }],
    ['one error', [undefined, { error: 'bad cert' }], { error: 'bad cert' }],
    [
      'errors are aggregated',
      [{ error: 'e1' }, undefined, { error: 'e2' }],
      { error: '[e1, e2]', causes: ['e1', 'e2'] },
    ],
    ['duplicate errors collapse', [{ error: 'e1' }, { error: 'e1' }], { error: 'e1' }],
  ])('%s', async (_name, results, expected) => {
    expect(await new UnionAuthenticator(results.map(fixed)).authenticate(req)).toEqual(expected);
  });

  it('stops at the first user', async () => {
    const later = fixed({ user: user('b') });
    await new UnionAuthenticator([fixed({ user: user('a') }), later]).authenticate(req);
    expect(later.calls).toBe(0);
  });
});

describe('UnionTokenAuthenticator', () => {
  const tok = (r: AuthenticationResult): TokenAuthenticator => ({
    authenticateToken: () => Promise.resolve(r),
  });
  it.each<[string, AuthenticationResult[], AuthenticationResult]>([
    ['nobody knows the token', [undefined, undefined], undefined],
    ['one knows it', [undefined, { user: user('a') }], { user: user('a') }],
    ['an error and nobody else', [{ error: 'expired' }, undefined], { error: 'expired' }],
    ['an error, then a user', [{ error: 'expired' }, { user: user('a') }], { user: user('a') }],
  ])('%s', async (_name, results, expected) => {
    expect(await new UnionTokenAuthenticator(results.map(tok)).authenticateToken('t')).toEqual(expected);
  });
});

describe('aggregateErrors', () => {
  it('flattens nested aggregates and drops duplicates', () => {
    const inner = aggregateErrors([{ error: 'a' }, { error: 'b' }]);
    expect(aggregateErrors([inner ?? { error: '' }, { error: 'b' }, { error: 'c' }])).toEqual({
      error: '[a, b, c]',
      causes: ['a', 'b', 'c'],
    });
  });
});

describe('AuthenticatedGroupAdder', () => {
  it.each<[string, AuthenticationResult, AuthenticationResult]>([
    [
      'adds system:authenticated',
      { user: user('bob', ['dev']) },
      { user: user('bob', ['dev', 'system:authenticated']) },
    ],
    ['to users without groups', { user: user('bob') }, { user: user('bob', ['system:authenticated']) }],
    [
      'not twice',
      { user: user('bob', ['system:authenticated', 'dev']) },
      { user: user('bob', ['system:authenticated', 'dev']) },
    ],
    [
      'not to unauthenticated users',
      { user: user('x', ['system:unauthenticated']) },
      { user: user('x', ['system:unauthenticated']) },
    ],
    [
      'not to system:anonymous, whatever its groups',
      { user: user('system:anonymous', ['dev']) },
      { user: user('system:anonymous', ['dev']) },
    ],
    ['errors pass through', { error: 'e' }, { error: 'e' }],
    ['no user passes through', undefined, undefined],
  ])('%s', async (_name, inner, expected) => {
    expect(await new AuthenticatedGroupAdder(fixed(inner)).authenticate(req)).toEqual(expected);
  });
});

describe('anonymous fallback', () => {
  const anonymous = {
    user: { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'], extra: {} },
  };
  it.each<[string, AuthenticationResult, AuthenticationResult]>([
    ['no credentials: anonymous', undefined, anonymous],
    [
      'bad credentials: the error, never anonymous',
      { error: 'invalid bearer token' },
      { error: 'invalid bearer token' },
    ],
    ['a user: that user', { user: user('bob') }, { user: user('bob') }],
  ])('%s', async (_name, primary, expected) => {
    const a = new FallbackOnNoCredentials(fixed(primary), new AnonymousAuthenticator());
    expect(await a.authenticate(req, newAuthenticationContext())).toEqual(expected);
  });
});
