import { describe, expect, it } from 'vitest';
import { decodeContinue, encodeContinue } from './continue.js';
import { StorageError } from './errors.js';

const token = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('continue tokens', () => {
  it('use the Kubernetes format and round-trip', () => {
    const t = encodeContinue('/events/ns/b\u0000', '/events/', 42);
    expect(JSON.parse(Buffer.from(t, 'base64url').toString())).toEqual({
      v: 'meta.k8s.io/v1',
      rv: 42,
      start: 'ns/b\u0000',
    });
    expect(t).not.toMatch(/[=+/]/);
    expect(decodeContinue(t, '/events/')).toEqual({ start: '/events/ns/b\u0000', rv: 42 });
    expect(decodeContinue(encodeContinue('/events/a', '/events/', -1), '/events/')).toEqual({
      start: '/events/a',
      rv: -1,
    });
  });

  it.each([
    ['not base64', 'a+b', 'continue key is not valid: illegal base64 data'],
    ['not JSON', Buffer.from('nope').toString('base64url'), /^continue key is not valid: /],
    [
      'an unknown version',
      token({ v: 'v2', rv: 1, start: 'a' }),
      'continue key is not valid: server does not recognize this encoded version',
    ],
    [
      'rv 0',
      token({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }),
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    ],
    [
      'an empty start',
      token({ v: 'meta.k8s.io/v1', rv: 3, start: '' }),
      'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
    ],
    [
      'a path climbing out of the prefix',
      token({ v: 'meta.k8s.io/v1', rv: 3, start: '../secrets/x' }),
      'continue key is not valid: ../secrets/x',
    ],
  ])('reject %s with InvalidContinue', (_what, t, message) => {
    let err: unknown;
    try {
      decodeContinue(t, '/events/');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StorageError);
    expect((err as StorageError).code).toBe('InvalidContinue');
    expect((err as StorageError).message).toMatch(message);
  });
});
