import { forbidden, type StatusError } from '@keel/apimachinery';
import type { AdmissionAttributes } from './attributes.js';

/**
 * The name a refusal names: the request's, else the object's (its generateName before a name is
 * chosen), else "Unknown" (kube's extractResourceName).
 */
export function admissionName(attrs: AdmissionAttributes): string {
  const meta = attrs.object?.metadata;
  const fromObject = meta?.name || meta?.generateName;
  return attrs.name || fromObject || 'Unknown';
}

/**
 * A plugin's refusal as the real server words it (kube's admission.NewForbidden): `<resource>
 * "<name>" is forbidden: <why>`, named as admissionName says.
 */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): StatusError {
  return forbidden(
    { group: attrs.resource.group, resource: attrs.resource.resource },
    admissionName(attrs),
    why,
  );
}
