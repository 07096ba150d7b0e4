/**
 * DefaultTolerationSeconds (kube's plugin/pkg/admission/defaulttolerationseconds): a new pod that
 * does not already tolerate `node.kubernetes.io/not-ready:NoExecute` or
 * `node.kubernetes.io/unreachable:NoExecute` gets a toleration for each, bounded by
 * --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds, so its
 * pods leave a failed node after that long instead of at once.
 */
import type { Toleration } from '@keel/coreapi';
import type { AdmissionPlugin } from '../plugin.js';
import { podOf } from './pods.js';

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';

/** Whether `t` tolerates the NoExecute taint `key` (an empty key or effect matches any). */
function toleratesNoExecute(t: Toleration, key: string): boolean {
  const k = t.key ?? '';
  const effect = t.effect ?? '';
  return (k === key || k === '') && (effect === 'NoExecute' || effect === '');
}

export function defaultTolerationSeconds(seconds: {
  readonly notReady: number;
  readonly unreachable: number;
}): AdmissionPlugin {
  const defaults: [string, number][] = [
    [TAINT_NODE_NOT_READY, seconds.notReady],
    [TAINT_NODE_UNREACHABLE, seconds.unreachable],
  ];
  return {
    name: 'DefaultTolerationSeconds',
    handles: (op) => op === 'CREATE',
    admit(attrs) {
      const pod = podOf(attrs);
      if (!pod) return;
      const spec = (pod.spec ??= {});
      const existing = spec.tolerations ?? [];
      const added = defaults
        .filter(([key]) => !existing.some((t) => toleratesNoExecute(t, key)))
        .map(([key, tolerationSeconds]): Toleration => ({
          key,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds,
        }));
      if (added.length > 0) spec.tolerations = [...existing, ...added];
    },
  };
}
