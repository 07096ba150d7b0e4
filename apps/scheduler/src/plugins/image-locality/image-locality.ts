import type { CycleState } from '../../framework/cycle-state.js';
import {
  MAX_NODE_SCORE,
  type PluginFactory,
  type PreScorePlugin,
  type ScorePlugin,
} from '../../framework/interface.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { Status, type MaybeStatus } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'ImageLocality';

const MB = 1024 * 1024;
/** Below this the images on a node are not worth preferring it for. */
export const MIN_THRESHOLD = 23 * MB;
/** Per container: beyond this a bigger image does not score higher. */
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** `nginx` and `reg:5000/nginx` mean `:latest`, as the container runtime reads them. */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/**
 * The sizes of the pod's images the node already has, each scaled by the share of nodes that
 * have it, so an image present everywhere does not pull every pod to the same node.
 */
export function sumImageScores(
  info: NodeInfo,
  pod: Pod,
  totalNumNodes: number,
  numNodesWith: (image: string) => number,
): number {
  let sum = 0;
  for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
    const name = normalizedImageName(c.image ?? '');
    const size = info.images.get(name);
    if (size === undefined) continue;
    sum += Math.trunc(size * (numNodesWith(name) / totalNumNodes));
  }
  return sum;
}

/** Clamps the sum into [23 MB, 1000 MB × containers] and scales it into 0..100. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  let s = sumScores;
  if (s < MIN_THRESHOLD) s = MIN_THRESHOLD;
  else if (s > maxThreshold) s = maxThreshold;
  return Math.trunc((MAX_NODE_SCORE * (s - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

/** kube's ImageLocality: prefers nodes that already have the pod's container images. */
export class ImageLocality implements PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  /**
   * Not in kube, and no change in outcome: when no node reports any of the pod's images every
   * node would score 0, so the per-node pass is skipped.
   */
  preScore(state: CycleState, pod: Pod): MaybeStatus {
    const snapshot = state.snapshot;
    if (!snapshot) return undefined;
    for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
      if (snapshot.imageNumNodes(normalizedImageName(c.image ?? '')) > 0) return undefined;
    }
    return Status.skip();
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const snapshot = state.snapshot;
    if (!snapshot) throw new Error('no node snapshot in the cycle state');
    const containers = (pod.spec.initContainers ?? []).length + (pod.spec.containers ?? []).length;
    // A node reporting no images scores the floor; most clusters' nodes in tests report none.
    if (nodeInfo.images.size === 0) return calculatePriority(0, containers);
    const total = snapshot.numNodes();
    const sum = sumImageScores(nodeInfo, pod, total, (n) => snapshot.imageNumNodes(n));
    return calculatePriority(sum, containers);
  }
}

export const create: PluginFactory = () => new ImageLocality();
