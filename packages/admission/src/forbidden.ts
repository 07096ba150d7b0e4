import { forbidden, type StatusError } from '@keel/apimachinery';
import type { AdmissionAttributes } from './attributes.js';

/**
 * A plugin's refusal as the real server words it (kube's admission.NewForbidden): `<resource>
 * "<name>" is forbidden: <why>`, the name taken from the request, else from the object (its
 * generateName before a name is chosen), else "Unknown".
 */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): StatusError {
  const meta = attrs.object?.metadata;
  const fromObject = meta?.name || meta?.generateName;
  const name = attrs.name || fromObject || 'Unknown';
  return forbidden({ group: attrs.resource.group, resource: attrs.resource.resource }, name, why);
}
