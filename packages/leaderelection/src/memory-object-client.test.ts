import { describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import { MemoryObjectClient } from './memory-object-client.js';

const COLL = '/apis/coordination.k8s.io/v1/namespaces/ns/leases';
const PATH = `${COLL}/x`;

async function failure(p: Promise<unknown>): Promise<[string | undefined, string]> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return [err.reason, err.message];
    return [undefined, (err as Error).message];
  }
  return [undefined, 'resolved'];
}

describe('MemoryObjectClient', () => {
  it('enforces optimistic concurrency with real Status errors', async () => {
    const c = new MemoryObjectClient();
    expect(await failure(c.get(PATH))).toEqual(['NotFound', 'leases.coordination.k8s.io "x" not found']);
    const created = await c.create(COLL, { metadata: { name: 'x' }, spec: { a: 1 } });
    expect(created.metadata?.resourceVersion).toBe('1');
    expect(await failure(c.create(COLL, { metadata: { name: 'x' } }))).toEqual([
      'AlreadyExists',
      'leases.coordination.k8s.io "x" already exists',
    ]);
    const updated = await c.update(PATH, { ...created, spec: { a: 2 } });
    expect(updated.metadata).toMatchObject({ resourceVersion: '2', uid: created.metadata?.uid });
    expect(await failure(c.update(PATH, { ...created, spec: { a: 3 } }))).toEqual([
      'Conflict',
      'Operation cannot be fulfilled on leases.coordination.k8s.io "x": the object has been modified; please apply your changes to the latest version and try again',
    ]);
    expect((await c.get(PATH)).spec).toEqual({ a: 2 });
    expect(await failure(c.update(`${COLL}/y`, { metadata: { name: 'y' } }))).toEqual([
      'NotFound',
      'leases.coordination.k8s.io "y" not found',
    ]);
  });

  it('returns copies, and honours an aborted signal', async () => {
    const c = new MemoryObjectClient();
    const created = await c.create(COLL, { metadata: { name: 'x' }, spec: { a: 1 } });
    (created.spec as { a: number }).a = 9;
    expect(c.peek(PATH)?.spec).toEqual({ a: 1 });
    const ctl = new AbortController();
    ctl.abort(new Error('gone'));
    expect(await failure(c.get(PATH, { signal: ctl.signal }))).toEqual([undefined, 'gone']);
  });
});
