/** The parts of a stored pod that LimitRanger and quota read and change. */
import type { AdmittedObject } from '../attributes.js';
import type { ResourceList } from './resource-lists.js';

export interface ContainerLike {
  name?: string;
  resources?: { limits?: ResourceList; requests?: ResourceList };
}

export interface PodLike {
  metadata: {
    name?: string;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    deletionGracePeriodSeconds?: number;
  };
  spec?: {
    containers?: ContainerLike[];
    initContainers?: ContainerLike[];
    activeDeadlineSeconds?: number;
    priorityClassName?: string;
    overhead?: ResourceList;
    affinity?: {
      podAffinity?: {
        requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[];
        preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm?: AffinityTerm }[];
      };
      podAntiAffinity?: {
        requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[];
        preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm?: AffinityTerm }[];
      };
    };
  };
  status?: { phase?: string };
}

interface AffinityTerm {
  namespaces?: string[];
  namespaceSelector?: unknown;
}

/** The object as a pod: the registry has decoded and defaulted it against the pod schema. */
export const asPod = (o: AdmittedObject): PodLike => o;

export const containersOf = (pod: PodLike): ContainerLike[] => pod.spec?.containers ?? [];
export const initContainersOf = (pod: PodLike): ContainerLike[] => pod.spec?.initContainers ?? [];
