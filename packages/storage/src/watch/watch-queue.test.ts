import { describe, expect, it } from 'vitest';
import { StorageError } from '../errors.js';
import { WatchQueue } from './watch-queue.js';
import type { WatchEvent } from '../storage.js';

const bookmark = (rv: number): WatchEvent<never> => ({ type: 'BOOKMARK', resourceVersion: String(rv) });

async function drain(q: WatchQueue<never>): Promise<string[]> {
  const out: string[] = [];
  for await (const ev of q) out.push(ev.type === 'ERROR' ? `ERROR ${ev.error.code}` : ev.resourceVersion);
  return out;
}

describe('WatchQueue', () => {
  it('hands events over in order and ends after end()', async () => {
    let done = 0;
    const q = new WatchQueue<never>(10, () => done++);
    const first = q.next();
    q.push(bookmark(1));
    q.push(bookmark(2));
    q.end();
    expect((await first).value).toEqual(bookmark(1));
    expect(await drain(q)).toEqual(['2']);
    expect(q.push(bookmark(3))).toBe(false);
    expect(done).toBe(1);
  });

  it('drops the backlog and ends with one Timeout ERROR when the consumer falls behind', async () => {
    const q = new WatchQueue<never>(3, () => undefined);
    const accepted = [1, 2, 3, 4, 5].map((rv) => q.push(bookmark(rv)));
    expect(accepted).toEqual([true, true, true, false, false]);
    expect(await drain(q)).toEqual(['ERROR Timeout']);
  });

  it('ends with the given error after the queued events when failing without dropping', async () => {
    const q = new WatchQueue<never>(3, () => undefined);
    q.push(bookmark(1));
    q.fail(new StorageError('Expired', 'gone'));
    expect(await drain(q)).toEqual(['1', 'ERROR Expired']);
  });

  it('unsubscribes when the consumer stops early', async () => {
    let done = 0;
    const q = new WatchQueue<never>(3, () => done++);
    q.push(bookmark(1));
    for await (const _ of q) break;
    expect(done).toBe(1);
    expect(q.push(bookmark(2))).toBe(false);
  });

  it('hands events to a sink, the queued first, and resolves once it took the last', async () => {
    let done = 0;
    const q = new WatchQueue<never>(10, () => done++);
    q.push(bookmark(1));
    const taken: string[] = [];
    const drained = q.drainTo({
      put: (ev) => (taken.push(ev.type === 'ERROR' ? 'ERROR' : ev.resourceVersion), true),
      ready: () => Promise.resolve(),
    });
    expect(taken).toEqual(['1']);
    q.push(bookmark(2));
    expect(taken).toEqual(['1', '2']);
    q.fail(new StorageError('Expired', 'gone'));
    await drained;
    expect(taken).toEqual(['1', '2', 'ERROR']);
    expect(q.push(bookmark(3))).toBe(false);
    expect(done).toBe(1);
  });

  it('ends, and rejects the drain, when the sink throws', async () => {
    let done = 0;
    const q = new WatchQueue<never>(10, () => done++);
    const drained = q.drainTo({
      put: () => {
        throw new Error('socket gone');
      },
      ready: () => Promise.resolve(),
    });
    q.push(bookmark(1));
    await expect(drained).rejects.toThrow('socket gone');
    expect(q.push(bookmark(2))).toBe(false);
    expect(done).toBe(1);
  });
});
