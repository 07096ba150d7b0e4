import { describe, expect, it } from 'vitest';
import { makePod } from '../framework/testing/fixtures.js';
import type { Pod } from '../framework/types.js';
import { disruptionTargetPatch } from './preemption-executor.js';

const NOW = Date.UTC(2024, 0, 2, 3, 4, 5);
const withConditions = (conditions: unknown[]): Pod => {
  const pod = makePod('v');
  return { ...pod, status: { ...pod.status, conditions } };
};
const target = {
  type: 'DisruptionTarget',
  status: 'True',
  reason: 'PreemptionByScheduler',
  message: 'default-scheduler: preempting to accommodate a higher priority pod',
  lastProbeTime: null,
};

describe('disruptionTargetPatch', () => {
  it("adds kube's DisruptionTarget condition, naming the preemptor's scheduler", () => {
    expect(disruptionTargetPatch(makePod('v'), 'default-scheduler', NOW)).toEqual({
      status: { conditions: [{ ...target, lastTransitionTime: '2024-01-02T03:04:05Z' }] },
    });
  });
  it('keeps the other conditions in order', () => {
    const p = withConditions([{ type: 'PodScheduled', status: 'True' }]);
    expect(disruptionTargetPatch(p, 'default-scheduler', NOW)).toMatchObject({
      status: { '$setElementOrder/conditions': [{ type: 'PodScheduled' }, { type: 'DisruptionTarget' }] },
    });
  });
  it('writes nothing when the victim already carries it', () => {
    const p = withConditions([{ ...target, lastTransitionTime: '2024-01-01T00:00:00Z' }]);
    expect(disruptionTargetPatch(p, 'default-scheduler', NOW)).toBeUndefined();
  });
});
