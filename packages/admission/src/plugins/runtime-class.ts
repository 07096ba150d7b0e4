import type { AdmissionPlugin } from '../plugin.js';
import { admissionForbidden } from '../forbidden.js';

interface PodSpecLike {
  readonly runtimeClassName?: string;
  readonly overhead?: Record<string, unknown>;
}

/**
 * RuntimeClass, for a server that serves no RuntimeClass objects (node.k8s.io is not served): a
 * pod naming one names a class that does not exist, and upstream refuses exactly that; so is a
 * pod that sets its overhead itself, which only a RuntimeClass may.
 */
export const runtimeClass: AdmissionPlugin = {
  name: 'RuntimeClass',
  handles: (op) => op === 'CREATE',
  validate(attrs) {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '') return;
    const spec = (attrs.object as { spec?: PodSpecLike } | undefined)?.spec ?? {};
    if (spec.runtimeClassName)
      throw admissionForbidden(
        attrs,
        `pod rejected: RuntimeClass ${JSON.stringify(spec.runtimeClassName)} not found`,
      );
    if (spec.overhead !== undefined && spec.overhead !== null)
      throw admissionForbidden(
        attrs,
        'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
      );
  },
};
