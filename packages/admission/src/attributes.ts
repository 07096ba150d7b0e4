import type { UserInfo } from '@keel/auth';
import type { StoredObject } from '@keel/resource';

/** What a write does, in admission's words (kube's admission.Operation). */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** What admission reads and, in the mutating phase, changes in place: any stored object. */
export type AdmittedObject = StoredObject;

/**
 * An object's wire form (the versioned JSON a client sends and reads, kind and apiVersion
 * included) and back, with the version's defaults: what webhooks are sent and patch.
 */
export interface ObjectCodec {
  encode(obj: AdmittedObject): Record<string, unknown>;
  /** Throws a StatusError (400) when `wire` is not a valid object of the kind. */
  decode(wire: unknown): AdmittedObject;
}

/** One write as the plugins see it (kube's admission.Attributes). */
export interface AdmissionAttributes {
  readonly operation: Operation;
  readonly resource: GroupVersionResource;
  /** '' for the resource itself, e.g. 'status' or 'binding'. */
  readonly subresource: string;
  readonly kind: GroupVersionKind;
  readonly namespace: string;
  /** May be '' on a create with generateName (the name is chosen after mutation). */
  readonly name: string;
  /** The new state (CREATE, UPDATE); undefined for DELETE. Mutating plugins edit it in place. */
  readonly object: AdmittedObject | undefined;
  /** The current state (UPDATE, DELETE); undefined for CREATE. */
  readonly oldObject: AdmittedObject | undefined;
  readonly user: UserInfo;
  readonly dryRun: boolean;
  /**
   * Records an annotation on the request's audit event (kube's Attributes.AddAnnotation); keys
   * are the plugin's own, e.g. `pod-security.kubernetes.io/enforce-policy`. Absent when the
   * request is not audited.
   */
  readonly addAnnotation?: (key: string, value: string) => void;
  /** The resource's wire codec (the registry's view); absent where a caller has none. */
  readonly codec?: ObjectCodec;
  /** Sends the client a warning (a `Warning: 299` header; kubectl prints it). Absent outside a request. */
  readonly addWarning?: (text: string) => void;
}
