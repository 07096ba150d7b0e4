/** audit.k8s.io/v1 as it travels: levels, stages and the Event every sink writes. */

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];

export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

/** The group versions events and policies can be written in. */
export const AUDIT_VERSIONS = ['audit.k8s.io/v1', 'audit.k8s.io/v1beta1'] as const;
export type AuditVersion = (typeof AUDIT_VERSIONS)[number];

export function levelAtLeast(level: Level, min: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(min);
}

/** authentication.k8s.io/v1 UserInfo; empty members are left out, as Go's omitempty does. */
export interface EventUser {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** metav1.Status as the event's responseStatus holds it (no kind or apiVersion). */
export interface ResponseStatus {
  readonly metadata: Record<string, never>;
  readonly status?: string;
  readonly message?: string;
  readonly reason?: string;
  readonly details?: unknown;
  readonly code: number;
}

/** A MicroTime kept exact: whole Unix seconds plus microseconds. */
export interface Instant {
  readonly seconds: number;
  readonly micros: number;
}

/** One event, one stage: what sinks receive. Immutable once handed to a sink. */
export interface AuditEvent {
  readonly level: Level;
  readonly auditID: string;
  readonly stage: Stage;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: EventUser;
  readonly impersonatedUser?: EventUser;
  readonly sourceIPs?: readonly string[];
  readonly userAgent?: string;
  readonly objectRef?: Readonly<ObjectReference>;
  readonly responseStatus?: ResponseStatus;
  readonly requestObject?: unknown;
  readonly responseObject?: unknown;
  readonly requestReceivedTimestamp: Instant;
  readonly stageTimestamp: Instant;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** What a request is, as the policy matches it (the authorizer's attributes). */
export interface RequestAttributes {
  readonly user: { readonly name: string; readonly groups: readonly string[] } | undefined;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}
