import { MAX_NODE_SCORE } from '../../framework/interface.js';

/**
 * kube's helper.DefaultNormalizeScore: scales scores so the highest becomes 100 (integer division,
 * as in Go); `reverse` turns "more is worse" counts into scores. All zero stays 0, or 100 reversed.
 */
export function defaultNormalizeScore(
  scores: number[],
  reverse: boolean,
  maxPriority = MAX_NODE_SCORE,
): void {
  let maxCount = 0;
  for (const s of scores) if (s > maxCount) maxCount = s;
  if (maxCount === 0) {
    if (reverse) scores.fill(maxPriority);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    const s = Math.trunc((maxPriority * (scores[i] as number)) / maxCount);
    scores[i] = reverse ? maxPriority - s : s;
  }
}
