/** Test helpers: the attributes of a write as the registry builds them, and running both phases. */
import { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes, Operation } from '../attributes.js';
import type { AdmissionChain } from '../chain.js';

const ADMIN = { name: 'admin', uid: '', groups: ['system:masters'], extra: {} };

/** A write to `resource` (core group) carrying `object`; the namespace defaults to `ns`. */
export function writeOf(
  operation: Operation,
  resource: 'pods' | 'nodes',
  object: StoredObject | undefined,
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  return {
    operation,
    resource: { group: '', version: 'v1', resource },
    subresource: '',
    kind: { group: '', version: 'v1', kind: resource === 'pods' ? 'Pod' : 'Node' },
    namespace: resource === 'pods' ? 'ns' : '',
    name: object?.metadata.name ?? '',
    object,
    oldObject: undefined,
    user: ADMIN,
    dryRun: false,
    ...over,
  };
}

/** A pod named `name` with one container, its spec extended by `spec`. */
export function podOf(
  name: string,
  spec: Record<string, unknown> = {},
): StoredObject & { spec: Record<string, unknown> } {
  return {
    metadata: { name, namespace: 'ns' },
    spec: {
      containers: [{ name: 'app', image: 'registry.example/app:1', imagePullPolicy: 'IfNotPresent' }],
      ...spec,
    },
  };
}

/** Runs admit then validate; the refusal's code and message, or undefined when admitted. */
export async function refusalOf(
  chain: AdmissionChain,
  attrs: AdmissionAttributes,
): Promise<{ code: number; reason: string; message: string } | undefined> {
  try {
    await chain.admit(attrs);
    await chain.validate(attrs);
    return undefined;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    const s = err.status;
    return { code: s.code ?? 0, reason: s.reason ?? '', message: s.message ?? '' };
  }
}
