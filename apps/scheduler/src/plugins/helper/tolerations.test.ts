import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../../framework/types.js';
import { doNotScheduleTaint, findUntoleratedTaint, toleratesTaint } from './tolerations.js';

const taint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

describe('toleratesTaint', () => {
  it.each<[string, Toleration, boolean]>([
    ['equal key, value and effect', { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, true],
    ['empty operator means Equal', { key: 'dedicated', operator: '', value: 'gpu' }, true],
    ['Equal with another value', { key: 'dedicated', operator: 'Equal', value: 'cpu' }, false],
    ['Exists ignores the value', { key: 'dedicated', operator: 'Exists' }, true],
    ['empty key with Exists tolerates everything', { operator: 'Exists' }, true],
    ['another effect', { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, false],
    ['another key', { key: 'other', operator: 'Exists' }, false],
    ['an unknown operator', { key: 'dedicated', operator: 'Gt', value: 'gpu' }, false],
  ])('%s → %s', (_name, t, want) => {
    expect(toleratesTaint(t, taint)).toBe(want);
  });

  it('matches an empty taint value with an empty toleration value', () => {
    expect(toleratesTaint({ key: 'k', operator: 'Equal' }, { key: 'k', effect: 'NoSchedule' })).toBe(true);
  });
});

describe('findUntoleratedTaint', () => {
  const taints: Taint[] = [
    { key: 'soft', effect: 'PreferNoSchedule' },
    { key: 'a', value: '1', effect: 'NoSchedule' },
    { key: 'b', value: '2', effect: 'NoExecute' },
  ];

  it.each<[string, Toleration[], string | undefined]>([
    ['no tolerations: the first hard taint', [], 'a'],
    ['a tolerated: b', [{ key: 'a', operator: 'Exists' }], 'b'],
    [
      'both tolerated',
      [
        { key: 'a', value: '1' },
        { key: 'b', operator: 'Exists' },
      ],
      undefined,
    ],
  ])('%s', (_name, tolerations, want) => {
    expect(findUntoleratedTaint(taints, tolerations, doNotScheduleTaint)?.key).toBe(want);
  });
});
