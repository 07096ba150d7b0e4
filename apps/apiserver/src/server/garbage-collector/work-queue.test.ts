import { describe, expect, it } from 'vitest';
import { WorkQueue, type WorkResult } from './work-queue.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('WorkQueue', () => {
  it('waits for start, handles each key once however often it is added', async () => {
    const seen: string[] = [];
    const q = new WorkQueue(async (k) => (seen.push(k), 'done'), { workers: 2 });
    q.add('a');
    q.add('b');
    q.add('a');
    expect(seen).toEqual([]);
    const ac = new AbortController();
    q.start(ac.signal);
    await q.idle();
    expect(seen.sort()).toEqual(['a', 'b']);
    ac.abort();
  });

  it('runs a key added while it is handled once more afterwards, never twice at once', async () => {
    const gate = deferred();
    let running = 0;
    let most = 0;
    let calls = 0;
    const q = new WorkQueue(
      async () => {
        calls++;
        running++;
        most = Math.max(most, running);
        if (calls === 1) await gate.promise;
        running--;
        return 'done';
      },
      { workers: 4 },
    );
    const ac = new AbortController();
    q.start(ac.signal);
    q.add('k');
    q.add('k');
    q.add('k');
    gate.resolve();
    await q.idle();
    await q.idle();
    expect([calls, most]).toEqual([2, 1]);
    ac.abort();
  });

  it('retries a failed key after a growing delay and reports the failure', async () => {
    const errors: unknown[] = [];
    let tries = 0;
    const done = deferred();
    const q = new WorkQueue(
      async (): Promise<WorkResult> => {
        tries++;
        if (tries === 1) throw new Error('boom');
        if (tries === 2) return 'retry';
        done.resolve();
        return 'done';
      },
      { workers: 1, baseDelayMs: 1, onError: (_k, e) => errors.push(e) },
    );
    const ac = new AbortController();
    q.start(ac.signal);
    q.add('k');
    await done.promise;
    expect(tries).toBe(3);
    expect(errors).toEqual([new Error('boom')]);
    ac.abort();
  });
});
