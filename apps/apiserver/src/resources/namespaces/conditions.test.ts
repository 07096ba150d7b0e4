import type { NamespaceCondition } from '@keel/coreapi';
import { describe, expect, it } from 'vitest';
import { failingConditions, updateConditions } from './conditions.js';

const clean = { remaining: new Map(), finalizers: new Map(), errors: [] };

describe('namespace deletion conditions', () => {
  it('sets all five, False with their "all is well" reasons, when nothing is wrong', () => {
    const conditions: NamespaceCondition[] = [];
    expect(updateConditions(conditions, failingConditions(clean), 't1')).toBe(true);
    expect(conditions.map((c) => [c.type, c.status, c.reason, c.message, c.lastTransitionTime])).toEqual([
      [
        'NamespaceDeletionDiscoveryFailure',
        'False',
        'ResourcesDiscovered',
        'All resources successfully discovered',
        't1',
      ],
      [
        'NamespaceDeletionGroupVersionParsingFailure',
        'False',
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed',
        't1',
      ],
      [
        'NamespaceDeletionContentFailure',
        'False',
        'ContentDeleted',
        'All content successfully deleted, may be waiting on finalization',
        't1',
      ],
      ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed', 't1'],
      [
        'NamespaceFinalizersRemaining',
        'False',
        'ContentHasNoFinalizers',
        'All content-preserving finalizers finished',
        't1',
      ],
    ]);
    expect(updateConditions(conditions, failingConditions(clean), 't2')).toBe(false);
  });

  it('words what is left and what failed as the real controller, sorted', () => {
    const failing = failingConditions({
      remaining: new Map([
        ['pods.', 2],
        ['configmaps.', 1],
      ]),
      finalizers: new Map([
        ['example.com/b', 1],
        ['example.com/a', 2],
      ]),
      errors: ['zeta failed', 'alpha failed'],
    });
    expect([...failing.values()]).toEqual([
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'True',
        reason: 'ContentDeletionFailed',
        message: 'Failed to delete all resource types, 2 remaining: alpha failed, zeta failed',
      },
      {
        type: 'NamespaceContentRemaining',
        status: 'True',
        reason: 'SomeResourcesRemain',
        message:
          'Some resources are remaining: configmaps. has 1 resource instances, pods. has 2 resource instances',
      },
      {
        type: 'NamespaceFinalizersRemaining',
        status: 'True',
        reason: 'SomeFinalizersRemain',
        message:
          'Some content in the namespace has finalizers remaining: example.com/a in 2 resource instances, example.com/b in 1 resource instances',
      },
    ]);
  });

  it('moves lastTransitionTime only when a status flips', () => {
    const conditions: NamespaceCondition[] = [];
    const held = (n: number) =>
      failingConditions({
        ...clean,
        remaining: new Map([['configmaps.', n]]),
        finalizers: new Map([['x/y', n]]),
      });
    updateConditions(conditions, held(2), 't1');
    expect(updateConditions(conditions, held(1), 't2')).toBe(true);
    const remaining = () => conditions.find((c) => c.type === 'NamespaceContentRemaining');
    expect(remaining()).toMatchObject({
      lastTransitionTime: 't1',
      message: 'Some resources are remaining: configmaps. has 1 resource instances',
    });
    updateConditions(conditions, failingConditions(clean), 't3');
    expect(remaining()).toMatchObject({ status: 'False', lastTransitionTime: 't3' });
  });
});
