import { Registry } from '../framework/registry.js';
import * as defaultPreemption from './default-preemption/default-preemption.js';
import * as imageLocality from './image-locality/image-locality.js';
import * as interPodAffinity from './inter-pod-affinity/inter-pod-affinity.js';
import * as nodeAffinity from './node-affinity/node-affinity.js';
import * as nodeName from './node-name/node-name.js';
import * as nodePorts from './node-ports/node-ports.js';
import * as balancedAllocation from './node-resources-balanced-allocation/node-resources-balanced-allocation.js';
import * as nodeResourcesFit from './node-resources-fit/node-resources-fit.js';
import * as nodeUnschedulable from './node-unschedulable/node-unschedulable.js';
import * as podTopologySpread from './pod-topology-spread/pod-topology-spread.js';
import * as prioritySort from './priority-sort/priority-sort.js';
import * as schedulingGates from './scheduling-gates/scheduling-gates.js';
import * as taintToleration from './taint-toleration/taint-toleration.js';
import * as nodeVolumeLimits from './node-volume-limits/node-volume-limits.js';
import * as volumeBinding from './volume-binding/volume-binding.js';
import * as volumeRestrictions from './volume-restrictions/volume-restrictions.js';
import * as volumeZone from './volume-zone/volume-zone.js';

/**
 * The in-tree plugins (kube's NewInTreeRegistry). DefaultBinder is not among them: binding talks
 * to the API server, so the caller registers it (`registry.register('DefaultBinder', factory)`).
 */
export function newInTreeRegistry(): Registry {
  const registry = new Registry();
  for (const p of [
    prioritySort,
    schedulingGates,
    nodeUnschedulable,
    nodeName,
    taintToleration,
    nodeAffinity,
    nodePorts,
    nodeResourcesFit,
    volumeRestrictions,
    nodeVolumeLimits,
    volumeBinding,
    volumeZone,
    podTopologySpread,
    interPodAffinity,
    defaultPreemption,
    balancedAllocation,
    imageLocality,
  ]) {
    registry.register(p.NAME, p.create);
  }
  return registry;
}
