import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Duration } from '@keel/flags';
import { LeaderElector } from './elector.js';
import { leaderElectionCheck } from './healthz.js';
import { MemoryObjectClient } from './memory-object-client.js';
import { newLock } from './new-lock.js';
import { LEASE_MS, startCandidate } from './testing/candidate.js';

const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);
const TIMEOUT = 20_000;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

async function outcome(p: Promise<void>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('leaderElectionCheck', () => {
  it.each<[string, number, string]>([
    ['just renewed', 0, 'ok'],
    ['exactly lease + timeout since the last renewal', LEASE_MS + TIMEOUT, 'ok'],
    [
      'past lease + timeout',
      LEASE_MS + TIMEOUT + 1,
      'failed election to renew leadership on lease platform-system/platform-scheduler',
    ],
  ])('for the leader: %s', async (_name, stuckFor, expected) => {
    const store = new MemoryObjectClient();
    const a = startCandidate(store, 'a', T0);
    await vi.advanceTimersByTimeAsync(0);
    expect(a.elector.isLeader()).toBe(true);
    const check = leaderElectionCheck(a.elector, TIMEOUT);
    expect(check.name).toBe('leaderElection');
    // Moving only the elector's clock stands for an event loop that stopped running its timers.
    a.skewMs = stuckFor;
    expect(await outcome(check.check(new AbortController().signal))).toBe(expected);
    a.controller.abort();
  });

  it('passes for a non-leader however long it has waited, and before the elector exists', async () => {
    const store = new MemoryObjectClient();
    const a = startCandidate(store, 'a', T0);
    const b = startCandidate(store, 'b', T0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(b.elector.getLeader()).toBe('a');
    b.skewMs = 10 * LEASE_MS;
    const signal = new AbortController().signal;
    expect(await outcome(leaderElectionCheck(b.elector, 0).check(signal))).toBe('ok');
    expect(await outcome(leaderElectionCheck(() => undefined, 0).check(signal))).toBe('ok');
    a.controller.abort();
    b.controller.abort();
  });

  it('rejects a negative timeout', () => {
    expect(() => leaderElectionCheck(() => undefined, -1)).toThrow(RangeError);
  });
});

describe('LeaderElector configuration', () => {
  const d = (s: string) => Duration.parse(s);
  it.each<[string, string, string, string, string]>([
    ['lease not above renew', '10s', '10s', '2s', 'leaseDuration must be greater than renewDeadline'],
    [
      'renew not above retry × 1.2',
      '15s',
      '2.4s',
      '2s',
      'renewDeadline must be greater than retryPeriod*JitterFactor',
    ],
    ['zero retry', '15s', '10s', '0s', 'retryPeriod must be greater than zero'],
  ])('rejects %s', (_name, lease, renew, retry, message) => {
    const lock = newLock('leases', 'ns', 'n', 'me', new MemoryObjectClient());
    const make = () =>
      new LeaderElector({
        lock,
        leaseDuration: d(lease),
        renewDeadline: d(renew),
        retryPeriod: d(retry),
        callbacks: { onStartedLeading: () => undefined, onStoppedLeading: () => undefined },
      });
    expect(make).toThrow(message);
  });

  it('rejects an empty identity', () => {
    const lock = newLock('leases', 'ns', 'n', '', new MemoryObjectClient());
    expect(
      () =>
        new LeaderElector({
          lock,
          leaseDuration: d('15s'),
          renewDeadline: d('10s'),
          retryPeriod: d('2s'),
          callbacks: { onStartedLeading: () => undefined, onStoppedLeading: () => undefined },
        }),
    ).toThrow('Lock identity is empty');
  });
});
