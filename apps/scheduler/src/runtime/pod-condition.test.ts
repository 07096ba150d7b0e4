import { describe, expect, it } from 'vitest';
import { makePod } from '../framework/testing/fixtures.js';
import type { Pod } from '../framework/types.js';
import { podScheduledFalsePatch, podStatusPath } from './pod-condition.js';

const NOW = Date.UTC(2024, 0, 2, 3, 4, 5, 678);
const withConditions = (conditions: unknown[]): Pod => {
  const pod = makePod('p', { namespace: 'ns' });
  return { ...pod, status: { ...pod.status, conditions } };
};

describe('podScheduledFalsePatch', () => {
  it('adds the condition to a pod without conditions', () => {
    expect(
      podScheduledFalsePatch(
        makePod('p'),
        'Unschedulable',
        '0/1 nodes are available: 1 Insufficient cpu.',
        NOW,
      ),
    ).toEqual({
      status: {
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/1 nodes are available: 1 Insufficient cpu.',
            lastProbeTime: null,
            lastTransitionTime: '2024-01-02T03:04:05Z',
          },
        ],
      },
    });
  });

  it('keeps the transition time and the list order when only the message changes', () => {
    const pod = withConditions([
      { type: 'Initialized', status: 'True' },
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: 'old',
        lastTransitionTime: '2020-01-01T00:00:00Z',
      },
    ]);
    expect(podScheduledFalsePatch(pod, 'Unschedulable', 'new', NOW)).toEqual({
      status: {
        '$setElementOrder/conditions': [{ type: 'Initialized' }, { type: 'PodScheduled' }],
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: 'new',
            lastProbeTime: null,
            lastTransitionTime: '2020-01-01T00:00:00Z',
          },
        ],
      },
    });
  });

  it('appends the condition after the existing ones in the order directive', () => {
    const patch = podScheduledFalsePatch(
      withConditions([{ type: 'Initialized', status: 'True' }]),
      'SchedulerError',
      'x',
      NOW,
    );
    expect((patch?.['status'] as Record<string, unknown>)['$setElementOrder/conditions']).toEqual([
      { type: 'Initialized' },
      { type: 'PodScheduled' },
    ]);
  });

  it('writes nothing when the pod already carries the same condition', () => {
    const pod = withConditions([
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: 'm',
        lastProbeTime: null,
        lastTransitionTime: '2020-01-01T00:00:00Z',
      },
    ]);
    expect(podScheduledFalsePatch(pod, 'Unschedulable', 'm', NOW)).toBeUndefined();
  });

  it('moves the transition time when the status flips', () => {
    const pod = withConditions([
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' },
    ]);
    const patch = podScheduledFalsePatch(pod, 'Unschedulable', 'm', NOW);
    const cond = (
      (patch?.['status'] as Record<string, unknown>)['conditions'] as Record<string, unknown>[]
    )[0];
    expect(cond?.['lastTransitionTime']).toBe('2024-01-02T03:04:05Z');
  });
});

describe('podStatusPath', () => {
  it('is the status subresource of the pod', () => {
    expect(podStatusPath(makePod('p', { namespace: 'team-a' }))).toBe(
      '/api/v1/namespaces/team-a/pods/p/status',
    );
  });
});

describe('podScheduledFalsePatch with a nominated node (kube updatePod)', () => {
  const cond = {
    type: 'PodScheduled',
    status: 'False',
    reason: 'Unschedulable',
    message: 'm',
    lastProbeTime: null,
    lastTransitionTime: '2024-01-01T00:00:00Z',
  };
  const pod = (nominatedNodeName?: string): Pod => {
    const p = withConditions([cond]);
    return { ...p, status: { ...p.status, ...(nominatedNodeName ? { nominatedNodeName } : {}) } };
  };
  it('writes only the nominated node when the condition is unchanged', () => {
    expect(podScheduledFalsePatch(pod(), 'Unschedulable', 'm', NOW, 'n1')).toEqual({
      status: { nominatedNodeName: 'n1' },
    });
  });
  it('clears it with null, and writes nothing when it is already so', () => {
    expect(podScheduledFalsePatch(pod('n1'), 'Unschedulable', 'm', NOW, '')).toEqual({
      status: { nominatedNodeName: null },
    });
    expect(podScheduledFalsePatch(pod(), 'Unschedulable', 'm', NOW, '')).toBeUndefined();
    expect(podScheduledFalsePatch(pod('n1'), 'Unschedulable', 'm', NOW, 'n1')).toBeUndefined();
    // undefined: PostFilter made no nomination decision, the field is left alone.
    expect(podScheduledFalsePatch(pod('n1'), 'Unschedulable', 'm', NOW)).toBeUndefined();
  });
  it('sends both in one patch when both change', () => {
    expect(podScheduledFalsePatch(pod(), 'Unschedulable', 'new', NOW, 'n2')).toMatchObject({
      status: { conditions: [{ type: 'PodScheduled', message: 'new' }], nominatedNodeName: 'n2' },
    });
  });
});
