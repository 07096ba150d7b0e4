/** Shared by the namespace plugins' tests: attributes of a write and how a chain answers it. */
import type { StatusError } from '@keel/apimachinery';
import type { AdmissionChain } from '../chain.js';
import type { AdmissionAttributes, Operation } from '../index.js';

const USER = { name: 'alice', uid: '', groups: ['system:authenticated'], extra: {} };

/** A write of a pod `name` in `namespace`, or of the Namespace `name` when resource is namespaces. */
export function write(
  operation: Operation,
  namespace: string,
  name: string,
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  return {
    operation,
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace,
    name,
    object: operation === 'DELETE' ? undefined : { metadata: { name, namespace } },
    oldObject: undefined,
    user: USER,
    dryRun: false,
    ...over,
  };
}

export function namespaceWrite(operation: Operation, name: string): AdmissionAttributes {
  return write(operation, '', name, {
    resource: { group: '', version: 'v1', resource: 'namespaces' },
    kind: { group: '', version: 'v1', kind: 'Namespace' },
    object: operation === 'DELETE' ? undefined : { metadata: { name } },
  });
}

/** Both phases of the chain; the refusal's Status, or undefined when admitted. */
export async function refusal(
  chain: AdmissionChain,
  a: AdmissionAttributes,
): Promise<StatusError['status'] | undefined> {
  try {
    if (chain.handles(a.operation)) {
      await chain.admit(a);
      await chain.validate(a);
    }
    return undefined;
  } catch (err) {
    return (err as StatusError).status;
  }
}

export function namespace(name: string, phase = 'Active', deleting = false) {
  return {
    metadata: { name, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: { finalizers: ['kubernetes'] },
    status: { phase },
  };
}
