import { describe, expect, it } from 'vitest';
import { defaultNormalizeScore } from './normalize-score.js';

describe('defaultNormalizeScore', () => {
  it.each([
    ['scales to the maximum', [1, 2, 4], false, [25, 50, 100]],
    ['truncates like integer division', [1, 3], false, [33, 100]],
    ['reverses', [0, 1, 2], true, [100, 50, 0]],
    ['all zero stays zero', [0, 0], false, [0, 0]],
    ['all zero reversed becomes 100', [0, 0], true, [100, 100]],
    ['no nodes', [], true, []],
  ])('%s', (_name, scores, reverse, want) => {
    const s = [...scores];
    defaultNormalizeScore(s, reverse);
    expect(s).toEqual(want);
  });
});
