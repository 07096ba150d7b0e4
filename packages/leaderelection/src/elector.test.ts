import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conflictModified } from '@keel/apimachinery';
import { MemoryObjectClient } from './memory-object-client.js';
import { microTimeString } from './record.js';
import {
  LEASE_MS,
  LEASE_PATH,
  RENEW_MS,
  RETRY_MS,
  acting,
  startCandidate,
  type Candidate,
  type CandidateOptions,
} from './testing/candidate.js';

const T0 = Date.UTC(2024, 0, 2, 3, 4, 5, 678);
/** The acquire loop's period with the harness's jitter (random 0.5): 2s + 0.5 × 1.2 × 2s. */
const ACQUIRE_PERIOD = RETRY_MS * 1.6;
const HOUR = 3_600_000;

let store: MemoryObjectClient;
let started: Candidate[];

function start(id: string, opts?: CandidateOptions): Candidate {
  const c = startCandidate(store, id, T0, opts);
  started.push(c);
  return c;
}

/** Advances the fake clock in small steps, checking after each that at most one candidate acts. */
async function advance(ms: number, step = 100): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await vi.advanceTimersByTimeAsync(step);
    expect(started.filter(acting).length).toBeLessThanOrEqual(1);
  }
}

const leaseSpec = () => store.peek(LEASE_PATH)?.spec as Record<string, unknown> | undefined;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  store = new MemoryObjectClient();
  started = [];
});

afterEach(async () => {
  for (const c of started) c.controller.abort();
  await vi.advanceTimersByTimeAsync(RENEW_MS);
  vi.useRealTimers();
});

describe('LeaderElector', () => {
  it('a single candidate creates the Lease and leads; renewals keep acquireTime and transitions', async () => {
    const a = start('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.elector.getLeader()).toBe('a');
    expect(a.trace).toEqual(['0 new-leader a', '0 started']);
    expect(acting(a)).toBe(true);
    const created = store.peek(LEASE_PATH);
    expect(created).toMatchObject({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'platform-scheduler', namespace: 'platform-system' },
    });
    expect(created?.spec).toEqual({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: '2024-01-02T03:04:05.678000Z',
      renewTime: '2024-01-02T03:04:05.678000Z',
      leaseTransitions: 0,
    });

    await advance(3 * RETRY_MS);
    expect(leaseSpec()).toEqual({
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: '2024-01-02T03:04:05.678000Z',
      renewTime: microTimeString(T0 + 3 * RETRY_MS),
      leaseTransitions: 0,
    });
    expect(a.events).toEqual(['Normal LeaderElection Lease platform-scheduler a became leader']);
  });

  it.each(['leases', 'endpointsleases', 'configmapsleases'])(
    'with %s, only one of two candidates leads',
    async (lockType) => {
      const a = start('a', { lockType });
      const b = start('b', { lockType });
      await advance(60_000);
      expect(acting(a)).toBe(true);
      expect(b.startedAt).toBeUndefined();
      expect(b.elector.isLeader()).toBe(false);
      expect(b.elector.getLeader()).toBe('a');
      // b lost the create race (AlreadyExists), so it first sees a's record on its second attempt.
      expect(b.trace).toEqual([`${ACQUIRE_PERIOD} new-leader a`]);
      expect(b.events).toEqual([]);
    },
  );

  /**
   * Cuts the leader's writes at 10s, then checks that it gives up within renewDeadline after its
   * first failed retry, and that the follower takes over only once the lease expired as IT observed it.
   */
  async function loseLeader(a: Candidate, b: Candidate): Promise<{ lastRenewal: number }> {
    await advance(10_000);
    expect(acting(a)).toBe(true);
    a.failWrites = true;
    const lastRenewal = a.lastWriteAt ?? NaN;
    await advance(40_000);
    await expect(a.result).resolves.toBe('lost');
    expect(a.endedAt).toBe(lastRenewal + RETRY_MS + RENEW_MS);
    expect(a.leaderSignal?.aborted).toBe(true);
    expect(a.trace.slice(-2)).toEqual([`${a.endedAt} stopped`, `${a.endedAt} result lost`]);
    expect(b.startedAt).toBeGreaterThanOrEqual(lastRenewal + LEASE_MS);
    expect(b.startedAt).toBeLessThanOrEqual(lastRenewal + LEASE_MS + 2 * ACQUIRE_PERIOD);
    expect(b.startedAt).toBeGreaterThan(a.endedAt ?? Infinity);
    expect(b.trace[0]).toBe(`${ACQUIRE_PERIOD} new-leader a`);
    expect(b.trace[1]).toBe(`${b.startedAt} new-leader b`);
    return { lastRenewal };
  }

  it.each<[string, string[]]>([
    ['leases', ['Lease']],
    ['endpointsleases', ['Endpoints', 'Lease']],
    ['configmapsleases', ['ConfigMap', 'Lease']],
  ])(
    'with %s, a leader that cannot renew reports lost and the other takes over after expiry; events name %j',
    async (lockType, kinds) => {
      const a = start('a', { lockType });
      const b = start('b', { lockType });
      await loseLeader(a, b);
      expect(b.elector.isLeader()).toBe(true);
      const event = (id: string, msg: string) =>
        kinds.map((k) => `Normal LeaderElection ${k} platform-scheduler ${id} ${msg}`);
      expect(a.events).toEqual([...event('a', 'became leader'), ...event('a', 'stopped leading')]);
      expect(b.events).toEqual(event('b', 'became leader'));
    },
  );

  it('counts a takeover as a transition but not a renewal', async () => {
    const a = start('a');
    const b = start('b');
    await advance(5 * RETRY_MS);
    expect(leaseSpec()?.leaseTransitions).toBe(0);
    expect(leaseSpec()?.acquireTime).toBe(microTimeString(T0));
    await loseLeader(a, b);
    expect(leaseSpec()).toMatchObject({
      holderIdentity: 'b',
      leaseTransitions: 1,
      acquireTime: microTimeString(T0 + (b.startedAt ?? NaN)),
    });
    await advance(5 * RETRY_MS);
    expect(leaseSpec()).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it.each<[string, number, number]>([
    ['follower an hour ahead', 0, HOUR],
    ['follower an hour behind', 0, -HOUR],
    ['leader an hour ahead', HOUR, 0],
    ['leader an hour behind', -HOUR, 0],
  ])('judges expiry by local observation, not renewTime (%s)', async (_name, skewA, skewB) => {
    const a = start('a', { skewMs: skewA });
    const b = start('b', { skewMs: skewB });
    await advance(60_000);
    expect(acting(a)).toBe(true);
    expect(b.startedAt).toBeUndefined();
    await loseLeader(a, b);
  });

  it('releases on cancel so the other candidate takes over at its next attempt', async () => {
    const a = start('a', { releaseOnCancel: true });
    const b = start('b');
    await advance(10_000);
    a.controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    await expect(a.result).resolves.toBe('released');
    expect(a.leaderSignal?.aborted).toBe(true);
    expect(leaseSpec()).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      acquireTime: microTimeString(T0 + 10_000),
      renewTime: microTimeString(T0 + 10_000),
      leaseTransitions: 0,
    });
    expect(a.trace.slice(-2)).toEqual(['10000 stopped', '10000 result released']);
    expect(a.events).toEqual([
      'Normal LeaderElection Lease platform-scheduler a became leader',
      'Normal LeaderElection Lease platform-scheduler a stopped leading',
    ]);
    await advance(ACQUIRE_PERIOD);
    expect(b.startedAt).toBeLessThanOrEqual(10_000 + ACQUIRE_PERIOD);
    expect(leaseSpec()).toMatchObject({ holderIdentity: 'b', leaseDurationSeconds: 15, leaseTransitions: 1 });
  });

  it.each<[string, Error, string, string]>([
    [
      'a conflict is retried',
      conflictModified({ group: 'coordination.k8s.io', resource: 'leases' }, 'x'),
      'released',
      '',
    ],
    ['another error gives up', new Error('connection reset'), 'cancelled', 'a'],
  ])('release: %s', async (_name, err, result, holder) => {
    const a = start('a', { releaseOnCancel: true });
    await advance(RETRY_MS);
    a.nextWriteError = err;
    a.controller.abort();
    await expect(a.result).resolves.toBe(result);
    expect(leaseSpec()?.holderIdentity).toBe(holder);
  });

  it('a renewal failing for less than renewDeadline keeps leadership', async () => {
    const a = start('a');
    const b = start('b');
    await advance(10_000);
    a.failWrites = true;
    await advance(RENEW_MS - RETRY_MS);
    a.failWrites = false;
    await advance(60_000);
    expect(acting(a)).toBe(true);
    expect(a.endedAt).toBeUndefined();
    expect(b.startedAt).toBeUndefined();
    expect(leaseSpec()).toMatchObject({ holderIdentity: 'a', leaseTransitions: 0 });
  });

  it('without releaseOnCancel, cancel leaves the lease to expire', async () => {
    const a = start('a');
    const b = start('b');
    await advance(10_000);
    const lastRenewal = a.lastWriteAt ?? NaN;
    a.controller.abort();
    await advance(LEASE_MS + 2 * ACQUIRE_PERIOD);
    await expect(a.result).resolves.toBe('cancelled');
    expect(a.endedAt).toBe(10_000);
    expect(b.startedAt).toBeGreaterThanOrEqual(lastRenewal + LEASE_MS);
    expect(leaseSpec()).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('cancelled before leading: run resolves cancelled and onStoppedLeading still runs', async () => {
    start('a');
    const b = start('b');
    await advance(5_000);
    b.controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    await expect(b.result).resolves.toBe('cancelled');
    expect(b.trace).toEqual([`${ACQUIRE_PERIOD} new-leader a`, '5000 stopped', '5000 result cancelled']);
    expect(b.events).toEqual([]);
  });
});
