import { describe, expect, it } from 'vitest';
import {
  deletionFinalizers,
  type GarbageCollectionOptions,
  type PropagationRequest,
} from './gc-finalizers.js';

const on: GarbageCollectionOptions = { enabled: true };
const obj = (finalizers?: string[]) => ({ metadata: { name: 'x', ...(finalizers ? { finalizers } : {}) } });

describe('deletionFinalizers', () => {
  it.each<[string, string[] | undefined, PropagationRequest, string[]]>([
    ['no request: background', undefined, {}, []],
    ['Background', ['a'], { propagationPolicy: 'Background' }, ['a']],
    ['Orphan', ['a'], { propagationPolicy: 'Orphan' }, ['a', 'orphan']],
    ['Foreground', undefined, { propagationPolicy: 'Foreground' }, ['foregroundDeletion']],
    ['orphanDependents=true', undefined, { orphanDependents: true }, ['orphan']],
    ['orphanDependents=false is background', ['foregroundDeletion'], { orphanDependents: false }, []],
    ['an existing orphan finalizer stays without a request', ['orphan'], {}, ['orphan']],
    [
      'an existing foreground finalizer stays without a request',
      ['foregroundDeletion'],
      {},
      ['foregroundDeletion'],
    ],
    [
      'the request replaces an existing one',
      ['a', 'orphan'],
      { propagationPolicy: 'Foreground' },
      ['a', 'foregroundDeletion'],
    ],
  ])('%s', (_what, finalizers, req, want) => {
    expect(deletionFinalizers(obj(finalizers), req, on).finalizers).toEqual(want);
  });

  it('says whether the set changed', () => {
    expect(deletionFinalizers(obj(['a']), {}, on).changed).toBe(false);
    expect(deletionFinalizers(obj(['orphan', 'a']), { orphanDependents: true }, on).changed).toBe(false);
    expect(deletionFinalizers(obj(['a']), { propagationPolicy: 'Orphan' }, on).changed).toBe(true);
  });

  it('adds none with the collector off or for a resource that does not support it', () => {
    for (const gc of [{ enabled: false }, { enabled: true, defaultPolicy: 'Unsupported' as const }]) {
      const r = deletionFinalizers(obj(['a']), { propagationPolicy: 'Foreground' }, gc);
      expect(r).toEqual({ changed: false, finalizers: ['a'] });
    }
  });

  it('follows a resource that orphans by default', () => {
    const gc = { enabled: true, defaultPolicy: 'OrphanDependents' as const };
    expect(deletionFinalizers(obj(), {}, gc).finalizers).toEqual(['orphan']);
    expect(deletionFinalizers(obj(), { propagationPolicy: 'Background' }, gc).finalizers).toEqual([]);
  });
});
