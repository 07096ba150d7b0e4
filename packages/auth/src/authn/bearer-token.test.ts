import { describe, expect, it } from 'vitest';
import { plainRequest } from '../testing/tls.js';
import {
  BearerTokenAuthenticator,
  EXTRA_SPACE_WARNING,
  INVALID_BEARER_TOKEN,
  parseBearerHeader,
} from './bearer-token.js';
import { stripCredentialHeaders, warningHeaderValue } from './headers.js';
import { TokenFileAuthenticator } from './token-file.js';
import { newAuthenticationContext, type AuthenticationResult, type TokenAuthenticator } from './types.js';
import { UnionTokenAuthenticator } from './union.js';

describe('parseBearerHeader', () => {
  it.each([
    ['Bearer abc', { token: 'abc' }],
    ['bearer abc', { token: 'abc' }],
    ['BEARER abc', { token: 'abc' }],
    ['BeArEr abc', { token: 'abc' }],
    ['  Bearer abc  ', { token: 'abc' }],
    ['Bearer abc def', { token: 'abc' }],
    ['Bearer a.b.c', { token: 'a.b.c' }],
    ['Bearer  abc', { ignored: true, warning: EXTRA_SPACE_WARNING }],
    ['Bearer   abc', { ignored: true, warning: EXTRA_SPACE_WARNING }],
    ['Bearer', { ignored: true }],
    ['Bearer ', { ignored: true }],
    ['', { ignored: true }],
    ['   ', { ignored: true }],
    ['Basic dXNlcjpwYXNz', { ignored: true }],
    ['Bearerabc', { ignored: true }],
    ['Bearer\tabc', { ignored: true }],
    ['Token abc', { ignored: true }],
  ])('%j → %j', (header, expected) => {
    expect(parseBearerHeader(header)).toEqual(expected);
  });
});

const bob = { name: 'bob', uid: '1', groups: ['dev'], extra: {} };
const tokens = new UnionTokenAuthenticator([new TokenFileAuthenticator(new Map([['good', bob]]))]);

describe('BearerTokenAuthenticator', () => {
  const authn = new BearerTokenAuthenticator(tokens);

  it.each<[string, [string, string][], AuthenticationResult, string[], string[]]>([
    ['a known token', [['Authorization', 'Bearer good']], { user: bob }, [], ['authorization']],
    ['lower-case scheme', [['authorization', 'bearer good']], { user: bob }, [], ['authorization']],
    ['an unknown token', [['Authorization', 'Bearer bad']], { error: INVALID_BEARER_TOKEN }, [], []],
    ['no header', [], undefined, [], []],
    ['another scheme', [['Authorization', 'Basic Zm9vOmJhcg==']], undefined, [], []],
    ['an empty token', [['Authorization', 'Bearer ']], undefined, [], []],
    ['two spaces', [['Authorization', 'Bearer  good']], undefined, [EXTRA_SPACE_WARNING], []],
    // Go's Header.Get: only the first Authorization header counts.
    [
      'the first of two headers',
      [
        ['Authorization', 'Bearer good'],
        ['Authorization', 'Bearer bad'],
      ],
      { user: bob },
      [],
      ['authorization'],
    ],
  ])('%s', async (_name, headers, expected, warnings, consumed) => {
    const ctx = newAuthenticationContext();
    expect(await authn.authenticate(plainRequest(headers), ctx)).toEqual(expected);
    expect(ctx.warnings).toEqual(warnings);
    expect(ctx.consumedHeaders).toEqual(consumed);
  });

  it('passes a token authenticator error through instead of "invalid bearer token"', async () => {
    const failing: TokenAuthenticator = {
      authenticateToken: () => Promise.resolve({ error: 'token expired' }),
    };
    const a = new BearerTokenAuthenticator(new UnionTokenAuthenticator([failing]));
    expect(await a.authenticate(plainRequest([['Authorization', 'Bearer x']]))).toEqual({
      error: 'token expired',
    });
  });

  it('works without a context', async () => {
    expect(await authn.authenticate(plainRequest([['Authorization', 'Bearer  good']]))).toBeUndefined();
  });
});

describe('stripCredentialHeaders', () => {
  it('removes Authorization and the consumed headers from headers and rawHeaders', () => {
    const req = plainRequest([
      ['Authorization', 'Bearer x'],
      ['X-Remote-User', 'alice'],
      ['Accept', 'application/json'],
      ['x-remote-extra-scopes', 'a'],
      ['X-Remote-Extra-Scopes', 'b'],
    ]);
    const ctx = newAuthenticationContext();
    ctx.consumedHeaders.push('x-remote-user', 'x-remote-extra-scopes');
    stripCredentialHeaders(req, ctx);
    expect(req.headers).toEqual({ accept: 'application/json' });
    expect(req.rawHeaders).toEqual(['Accept', 'application/json']);
  });
});

describe('warningHeaderValue', () => {
  it.each([
    [EXTRA_SPACE_WARNING, `299 - "${EXTRA_SPACE_WARNING}"`],
    ['say "hi" \\o/', '299 - "say \\"hi\\" \\\\o/"'],
  ])('%j', (text, expected) => {
    expect(warningHeaderValue(text)).toBe(expected);
  });
});
