/** The metadata fields the RBAC code reads; the stored objects carry the full ObjectMeta. */
export interface ObjectMetaLike {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [field: string]: unknown;
}
