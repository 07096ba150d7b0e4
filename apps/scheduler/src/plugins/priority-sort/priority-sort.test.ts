import { describe, expect, it } from 'vitest';
import type { QueuedPodInfo } from '../../framework/interface.js';
import { makePod } from '../../framework/testing/fixtures.js';
import { PrioritySort, podPriority } from './priority-sort.js';

const info = (priority: number | undefined, timestamp: number): QueuedPodInfo => ({
  pod: makePod('p', priority === undefined ? {} : { priority }),
  key: 'default/p',
  timestamp,
  attempts: 0,
  initialAttemptTimestamp: undefined,
  unschedulablePlugins: new Set(),
  gated: false,
});

describe('PrioritySort.less', () => {
  const less = (a: QueuedPodInfo, b: QueuedPodInfo) => new PrioritySort().less(a, b);

  it.each([
    ['higher priority first', info(10, 5), info(1, 1), true],
    ['lower priority later', info(1, 1), info(10, 5), false],
    ['equal priority: earlier first', info(5, 1), info(5, 2), true],
    ['equal priority: later second', info(5, 2), info(5, 1), false],
    ['identical: not less', info(5, 1), info(5, 1), false],
    ['unset priority is 0', info(undefined, 1), info(-1, 0), true],
  ])('%s', (_name, a, b, want) => {
    expect(less(a, b)).toBe(want);
  });

  it('reads an unset priority as 0', () => {
    expect(podPriority(makePod('p'))).toBe(0);
  });
});
