import { describe, expect, it } from 'vitest';
import { InFlightLimit, limitWrites, type WriteClient } from './write-limit.js';

function deferred<T = void>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('InFlightLimit', () => {
  it('runs at most `limit` tasks at once and starts the rest in order', async () => {
    const gate = new InFlightLimit(2);
    const tasks = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    const results = tasks.map((t, i) =>
      gate.run(() => {
        started.push(i);
        return t.promise;
      }),
    );
    const all = Promise.allSettled(results);
    await tick();
    expect(started).toEqual([0, 1]);
    expect(gate.queued).toBe(3);
    tasks[1]?.resolve(1);
    await tick();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]?.reject(new Error('boom'));
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const [i, t] of tasks.entries()) if (i > 1) t.resolve(i);
    const settled = await all;
    expect(settled.map((s) => s.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    // Every slot came back: two new tasks start at once.
    const again: number[] = [];
    await Promise.all([0, 1].map((i) => gate.run(async () => void again.push(i))));
    expect(again).toEqual([0, 1]);
  });

  it('gives up a waiting task whose signal aborts, without taking a slot', async () => {
    const gate = new InFlightLimit(1);
    const first = deferred();
    const running = gate.run(() => first.promise);
    const ac = new AbortController();
    let ran = false;
    const waiting = gate.run(async () => void (ran = true), ac.signal);
    ac.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    expect(gate.queued).toBe(0);
    first.resolve();
    await running;
    expect(ran).toBe(false);
    await gate.run(async () => undefined);
  });

  it('gives up every waiter of an aborted signal and keeps the others in order', async () => {
    const gate = new InFlightLimit(1);
    const first = deferred();
    const running = gate.run(() => first.promise);
    const ac = new AbortController();
    const other = new AbortController();
    const ran: string[] = [];
    const a = gate.run(async () => void ran.push('a'), ac.signal);
    const b = gate.run(async () => void ran.push('b'), other.signal);
    const c = gate.run(async () => void ran.push('c'), ac.signal);
    ac.abort(new Error('stopped'));
    await expect(a).rejects.toThrow('stopped');
    await expect(c).rejects.toThrow('stopped');
    expect(gate.queued).toBe(1);
    first.resolve();
    await running;
    await b;
    expect(ran).toEqual(['b']);
  });

  it('refuses a limit below 1', () => {
    expect(() => new InFlightLimit(0)).toThrow(RangeError);
  });
});

describe('limitWrites', () => {
  it('limits creates and patches together and lets reads through', async () => {
    const open = deferred<unknown>();
    let inFlight = 0;
    let reads = 0;
    const write = async () => {
      inFlight++;
      await open.promise;
      inFlight--;
      return {};
    };
    const client = {
      list: async () => (reads++, { items: [] }),
      watch: () => (async function* () {})(),
      create: write,
      patch: write,
    } as unknown as WriteClient;
    const limited = limitWrites(client, 2);
    const writes = [limited.create('/a', {}), limited.patch('/b', 'merge', {}), limited.create('/c', {})];
    await tick();
    expect(inFlight).toBe(2);
    await limited.list('/x');
    expect(reads).toBe(1);
    open.resolve({});
    await Promise.all(writes);
    expect(inFlight).toBe(0);
  });
});
