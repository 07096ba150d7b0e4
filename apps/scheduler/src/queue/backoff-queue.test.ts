import { describe, expect, it } from 'vitest';
import type { QueuedPodInfo } from '../framework/interface.js';
import { makePod } from '../framework/testing/fixtures.js';
import { BackoffQueue, backoffDuration } from './backoff-queue.js';

describe('backoffDuration', () => {
  it.each([
    [0, 1000],
    [1, 1000],
    [2, 2000],
    [3, 4000],
    [4, 8000],
    [5, 10000],
    [60, 10000],
  ])('attempt %d → %d ms with 1s initial, 10s max', (attempts, want) => {
    expect(backoffDuration(attempts, 1000, 10_000)).toBe(want);
  });

  it('caps the initial backoff too', () => {
    expect(backoffDuration(1, 5000, 3000)).toBe(3000);
  });
});

describe('BackoffQueue', () => {
  const info = (name: string, timestamp: number, attempts: number): QueuedPodInfo => ({
    pod: makePod(name),
    key: `default/${name}`,
    timestamp,
    attempts,
    initialAttemptTimestamp: undefined,
    unschedulablePlugins: new Set(),
    gated: false,
  });

  it('releases pods in expiry order once their backoff is over', () => {
    const q = new BackoffQueue(1000, 10_000);
    q.add(info('slow', 0, 3)); // expires at 4000
    q.add(info('fast', 500, 1)); // expires at 1500
    q.add(info('mid', 0, 2)); // expires at 2000
    expect(q.popCompleted(1499)).toEqual([]);
    expect(q.popCompleted(2000).map((p) => p.key)).toEqual(['default/fast', 'default/mid']);
    expect(q.size).toBe(1);
    expect(q.isBackingOff(info('x', 0, 3), 3999)).toBe(true);
    expect(q.isBackingOff(info('x', 0, 3), 4000)).toBe(false);
  });
});
