import type { Pod } from '../../framework/types.js';
import { podPriority } from '../priority-sort/priority-sort.js';
import { podStartTime } from './victims.js';

/** A node where preemption lets the pod fit: its victims (most important first) and their PDB violations. */
export interface Candidate {
  readonly nodeName: string;
  readonly victims: readonly Pod[];
  readonly numPDBViolations: number;
}

/** Added to each priority so that sums of negative priorities still favour fewer pods (kube's MaxInt32+1). */
const PRIORITY_OFFSET = 2 ** 31;

/**
 * kube's GetEarliestPodStartTime: the earliest start among the victims of the highest priority
 * (victims are sorted most important first, so that is the first victim's priority).
 */
function earliestStartOfHighest(victims: readonly Pod[], nowMs: number): number {
  const first = victims[0];
  if (!first) return -Infinity;
  const top = podPriority(first);
  let earliest = Infinity;
  for (const v of victims) if (podPriority(v) === top) earliest = Math.min(earliest, podStartTime(v, nowMs));
  return earliest;
}

/**
 * kube's pickOneNodeForPreemption: each criterion keeps the candidates with the best value and
 * the next one breaks ties among them: fewest PDB violations, lowest highest-priority victim,
 * lowest sum of priorities, fewest victims, latest start of the highest-priority victims; then
 * the first candidate.
 */
export function pickOneNodeForPreemption(
  candidates: readonly Candidate[],
  nowMs: number,
): Candidate | undefined {
  const scores: ((c: Candidate) => number)[] = [
    (c) => -c.numPDBViolations,
    (c) => -podPriority(c.victims[0] as Pod),
    (c) => -c.victims.reduce((sum, v) => sum + podPriority(v) + PRIORITY_OFFSET, 0),
    (c) => -c.victims.length,
    (c) => earliestStartOfHighest(c.victims, nowMs),
  ];
  let left = [...candidates];
  for (const score of scores) {
    if (left.length <= 1) break;
    let best = -Infinity;
    let kept: Candidate[] = [];
    for (const c of left) {
      const s = score(c);
      if (s > best) {
        best = s;
        kept = [c];
      } else if (s === best) kept.push(c);
    }
    left = kept;
  }
  return left[0];
}
