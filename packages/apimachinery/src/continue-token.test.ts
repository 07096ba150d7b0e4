import { describe, expect, it } from 'vitest';
import { continueExpired, decodeContinue, encodeContinue, listResourceVersionExpired, tooOldResourceVersion, watchResourceVersionExpired } from './continue-token.js';
import { StatusError } from './errors.js';
import { goPathClean } from './go-path.js';

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');

describe('encodeContinue', () => {
  it.each([
    ['/registry/events/ns/a\u0000', '/registry/events/', 5, 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NSwic3RhcnQiOiJucy9hXHUwMDAwIn0'],
    ['ns/b\u0000', '', -1, 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoibnMvYlx1MDAwMCJ9'],
  ])('%j', (key, prefix, rv, want) => {
    expect(encodeContinue(key, prefix, rv)).toBe(want);
  });

  it('refuses a key outside the prefix', () => {
    expect(() => encodeContinue('/other/x', '/registry/', 1)).toThrow('unable to encode next field: the key and key prefix do not match');
  });
});

describe('decodeContinue', () => {
  it.each([
    ['eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NSwic3RhcnQiOiJucy9hXHUwMDAwIn0', '/registry/events/', { fromKey: '/registry/events/ns/a\u0000', rv: 5 }],
    ['eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoibnMvYlx1MDAwMCJ9', '', { fromKey: 'ns/b\u0000', rv: -1 }],
    // Go matches JSON keys to struct fields without regard to case.
    ['eyJWIjoibWV0YS5rOHMuaW8vdjEiLCJSViI6NywiU3RhcnQiOiJhL2IifQ', 'p/', { fromKey: 'p/a/b', rv: 7 }],
  ])('%s', (token, prefix, want) => {
    expect(decodeContinue(token, prefix)).toEqual(want);
  });

  it('round-trips', () => {
    expect(decodeContinue(encodeContinue('/r/pods/ns/x\u0000', '/r/pods/', 42), '/r/pods/')).toEqual({ fromKey: '/r/pods/ns/x\u0000', rv: 42 });
  });

  it.each([
    ['a', 'continue key is not valid: illegal base64 data at input byte 0'],
    ['!!!!', 'continue key is not valid: illegal base64 data at input byte 0'],
    ['eyJ=', 'continue key is not valid: illegal base64 data at input byte 3'],
    ['eyJ2I', 'continue key is not valid: illegal base64 data at input byte 4'],
    ['eyJ2Ij', 'continue key is not valid: unexpected end of JSON input'],
    [b64('{"v" 1}'), "continue key is not valid: invalid character '1' after object key"],
    ['', 'continue key is not valid: unexpected end of JSON input'],
    [b64('xyz'), "continue key is not valid: invalid character 'x' looking for beginning of value"],
    // Bytes that are not UTF-8: Go names the byte itself.
    ['garbage', "continue key is not valid: invalid character '\\u0081' looking for beginning of value"],
    [b64('[]'), 'continue key is not valid: json: cannot unmarshal array into Go value of type storage.continueToken'],
    [b64('{"rv":"5"}'), 'continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
    [b64('{"rv":1.5}'), 'continue key is not valid: json: cannot unmarshal number 1.5 into Go struct field continueToken.rv of type int64'],
    [b64('{"start":5}'), 'continue key is not valid: json: cannot unmarshal number into Go struct field continueToken.start of type string'],
    ['eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJ4In0', 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    ['eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Mywic3RhcnQiOiIifQ', 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
    ['eyJ2IjoidjIiLCJydiI6Mywic3RhcnQiOiJ4In0', 'continue key is not valid: server does not recognize this encoded version v2'],
    [b64('null'), 'continue key is not valid: server does not recognize this encoded version '],
    ['eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Mywic3RhcnQiOiIuLi94In0', 'continue key is not valid: ../x'],
    [b64('{"v":"meta.k8s.io/v1","rv":3,"start":"a//b"}'), 'continue key is not valid: a//b'],
  ])('%j → 400 invalid continue token', (token, detail) => {
    let caught: unknown;
    try {
      decodeContinue(token, '/registry/');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).status).toMatchObject({ code: 400, reason: 'BadRequest', message: `invalid continue token: ${detail}` });
  });
});

describe('path.Clean', () => {
  it.each([
    ['', '.'],
    ['/', '/'],
    ['/a/b', '/a/b'],
    ['/a//b/', '/a/b'],
    ['/a/./b/../c', '/a/c'],
    ['/../a', '/a'],
    ['a/../../b', '../b'],
  ])('%j → %j', (p, want) => {
    expect(goPathClean(p)).toBe(want);
  });
});

describe('expiry errors', () => {
  it('continueExpired with a key carries a fresh token at rv -1', () => {
    const err = continueExpired('/registry/events/ns/b\u0000', '/registry/events/');
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: { continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoibnMvYlx1MDAwMCJ9' },
      status: 'Failure',
      message:
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      reason: 'Expired',
      code: 410,
    });
  });

  it.each([
    [continueExpired(), 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'],
    [continueExpired('/elsewhere/x', '/registry/'), 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.'],
    [listResourceVersionExpired(), 'The resourceVersion for the provided list is too old.'],
    [watchResourceVersionExpired(), 'The resourceVersion for the provided watch is too old.'],
    [tooOldResourceVersion(123, 457), 'too old resource version: 123 (456)'],
  ])('%#', (err, message) => {
    expect(err.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Expired', code: 410 });
  });
});
