import { describe, expect, it } from 'vitest';
import { pingCheck } from './checker.js';
import { PostStartHooks } from './post-start-hooks.js';
import { HealthRegistries, type Clock } from './registries.js';
import { request, serve } from './testing/serve.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('PostStartHooks', () => {
  it('walks each hook check from not finished to ok, or to the hook error', async () => {
    const registries = new HealthRegistries();
    registries.addHealthChecks(pingCheck);
    const hooks = new PostStartHooks(registries);
    const informers = deferred();
    const roles = deferred();
    hooks.add('start-informers', () => informers.promise);
    hooks.add('rbac/bootstrap-roles', () => roles.promise);
    const { base, close } = await serve(registries.install());
    const get = async (target: string) => {
      const reply = await request(base, target);
      return [reply.status, reply.body];
    };
    try {
      expect(await get('/readyz')).toEqual([
        500,
        '[+]ping ok\n[-]poststarthook/start-informers failed: reason withheld\n[-]poststarthook/rbac/bootstrap-roles failed: reason withheld\nreadyz check failed\n',
      ]);
      expect(await get('/readyz/poststarthook/start-informers')).toEqual([
        500,
        'internal server error: not finished\n',
      ]);

      const all = hooks.runAll();
      informers.resolve();
      await informers.promise;
      expect(await get('/livez/poststarthook/start-informers')).toEqual([200, 'ok']);
      expect(await get('/livez/poststarthook/rbac/bootstrap-roles')).toEqual([
        500,
        'internal server error: not finished\n',
      ]);

      roles.reject(new Error('roles: forbidden'));
      await expect(all).rejects.toThrow('PostStartHook "rbac/bootstrap-roles" failed: roles: forbidden');
      expect(await get('/healthz/poststarthook/rbac/bootstrap-roles')).toEqual([
        500,
        'internal server error: roles: forbidden\n',
      ]);
      expect(await get('/healthz?verbose')).toEqual([
        500,
        '[+]ping ok\n[+]poststarthook/start-informers ok\n[-]poststarthook/rbac/bootstrap-roles failed: reason withheld\nhealthz check failed\n',
      ]);
    } finally {
      await close();
    }
  });

  it('starts the hooks in parallel and hands them the signal', async () => {
    const hooks = new PostStartHooks(new HealthRegistries());
    const bStarted = deferred();
    const stop = new AbortController();
    const seen: AbortSignal[] = [];
    hooks.add('a', async (signal) => {
      seen.push(signal);
      await bStarted.promise;
    });
    hooks.add('b', async (signal) => {
      seen.push(signal);
      bStarted.resolve();
    });
    await hooks.runAll(stop.signal);
    expect(seen).toEqual([stop.signal, stop.signal]);
  });

  it('rejects with every failure once all hooks have settled', async () => {
    const hooks = new PostStartHooks(new HealthRegistries());
    let slowDone = false;
    hooks.add('x', () => Promise.reject(new Error('one')));
    hooks.add('slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      slowDone = true;
    });
    hooks.add('y', () => {
      throw new Error('two');
    });
    const err: unknown = await hooks.runAll().catch((e: unknown) => e);
    expect(slowDone).toBe(true);
    expect(err).toBeInstanceOf(AggregateError);
    expect((err as AggregateError).message).toBe(
      'PostStartHook "x" failed: one; PostStartHook "y" failed: two',
    );
    expect((err as AggregateError).errors).toEqual([new Error('one'), new Error('two')]);
  });

  it('is one-shot: no adds or second run after runAll', async () => {
    const hooks = new PostStartHooks(new HealthRegistries());
    await hooks.runAll();
    expect(() => hooks.add('late', () => Promise.resolve())).toThrow(
      'unable to add "late" because PostStartHooks have already been called',
    );
    await expect(hooks.runAll()).rejects.toThrow('PostStartHooks have already been called');
  });

  it('refuses a duplicate name', () => {
    const hooks = new PostStartHooks(new HealthRegistries());
    hooks.add('x', () => Promise.resolve());
    expect(() => hooks.add('x', () => Promise.resolve())).toThrow(
      'unable to add "x" because it was already registered',
    );
  });

  it('does not register a hook whose check the registries refuse', async () => {
    const registries = new HealthRegistries();
    registries.install();
    const hooks = new PostStartHooks(registries);
    let ran = false;
    expect(() =>
      hooks.add('late', async () => {
        ran = true;
      }),
    ).toThrow('unable to add because the /healthz endpoint has already been created');
    await hooks.runAll();
    expect(ran).toBe(false);
  });

  it('lets livez pass unfinished hooks during the grace period, never readyz', async () => {
    const clock: Clock = { now: () => 0 };
    const registries = new HealthRegistries({ livezGracePeriodMs: 60_000, clock });
    new PostStartHooks(registries).add('start-informers', () => new Promise(() => undefined));
    const { base, close } = await serve(registries.install());
    try {
      expect(await request(base, '/livez')).toMatchObject({ status: 200, body: 'ok' });
      expect(await request(base, '/readyz')).toMatchObject({ status: 500 });
    } finally {
      await close();
    }
  });
});
