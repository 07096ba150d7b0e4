/**
 * TaintNodesByCondition (kube's plugin/pkg/admission/nodetaint): every new Node starts with the
 * `node.kubernetes.io/not-ready:NoSchedule` taint, so nothing is scheduled on it before it is
 * known to be ready; the node lifecycle controller removes the taint once the node reports
 * Ready.
 */
import type { Node, Taint } from '@keel/coreapi';
import type { AdmissionPlugin } from '../plugin.js';
import { TAINT_NODE_NOT_READY } from './default-toleration-seconds.js';

const NOT_READY: Taint = { key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' };

export const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  handles: (op) => op === 'CREATE',
  admit(attrs) {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'nodes' || attrs.subresource !== '')
      return;
    const node: Node | undefined = attrs.object;
    if (!node) return;
    const spec = (node.spec ??= {});
    const taints = spec.taints ?? [];
    // A taint with the same key and effect already there is kept as it is (Go's MatchTaint).
    if (taints.some((t) => (t.key ?? '') === NOT_READY.key && (t.effect ?? '') === NOT_READY.effect)) return;
    spec.taints = [...taints, { ...NOT_READY }];
  },
};
