/**
 * One request's audit: the event kube keeps in its audit context, filled in as the request goes
 * through the chain and handed to the sinks at each stage not omitted. Every stage gets its own
 * immutable copy, so a buffered event never changes after it was handed over.
 */
import { cloneJson } from '@keel/apimachinery';
import { nowInstant } from './clock.js';
import { noAuditMetrics, type AuditMetrics } from './metrics.js';
import type { AuditDecision } from './policy-checker.js';
import type { Sink } from './sink.js';
import {
  levelAtLeast,
  type AuditEvent,
  type EventUser,
  type Instant,
  type Level,
  type ObjectReference,
  type ResponseStatus,
  type Stage,
} from './types.js';

export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

export interface UserLike {
  readonly name: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

export function eventUser(u: UserLike): EventUser {
  const out: {
    username?: string;
    uid?: string;
    groups?: readonly string[];
    extra?: Record<string, readonly string[]>;
  } = {};
  if (u.name !== '') out.username = u.name;
  if (u.uid !== '') out.uid = u.uid;
  if (u.groups.length > 0) out.groups = u.groups;
  if (Object.keys(u.extra).length > 0) out.extra = u.extra;
  return out;
}

export interface RequestMetadata {
  readonly auditID: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: UserLike;
  readonly sourceIPs: readonly string[];
  readonly userAgent: string;
  readonly received: Instant;
  /** Resource requests only. */
  readonly objectRef: ObjectReference | undefined;
}

const MAX_USER_AGENT = 1024;

function stripManagedFields(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const o = obj as Record<string, unknown>;
  let out = o;
  const meta = o['metadata'];
  if (typeof meta === 'object' && meta !== null && 'managedFields' in meta) {
    const { managedFields: _dropped, ...rest } = meta as Record<string, unknown>;
    out = { ...o, metadata: rest };
  }
  if (Array.isArray(o['items'])) out = { ...out, items: o['items'].map(stripManagedFields) };
  return out;
}

function isStatus(obj: unknown): obj is Record<string, unknown> {
  return typeof obj === 'object' && obj !== null && (obj as Record<string, unknown>)['kind'] === 'Status';
}

export class RequestAudit {
  private readonly event: {
    -readonly [K in keyof AuditEvent]: AuditEvent[K];
  };
  private readonly annotations: Record<string, string> = {};
  private readonly omitStages: ReadonlySet<Stage>;
  private done = false;

  constructor(
    meta: RequestMetadata,
    private readonly decision: AuditDecision,
    private readonly sink: Sink,
    private readonly metrics: AuditMetrics = noAuditMetrics,
  ) {
    this.omitStages = new Set(decision.omitStages);
    const ua =
      meta.userAgent.length > MAX_USER_AGENT
        ? `${meta.userAgent.slice(0, MAX_USER_AGENT)}...TRUNCATED`
        : meta.userAgent;
    this.event = {
      level: decision.level,
      auditID: meta.auditID,
      stage: 'RequestReceived',
      requestURI: meta.requestURI,
      verb: meta.verb,
      user: eventUser(meta.user),
      sourceIPs: meta.sourceIPs,
      userAgent: ua,
      objectRef: meta.objectRef,
      requestReceivedTimestamp: meta.received,
      stageTimestamp: meta.received,
    };
  }

  get level(): Level {
    return this.decision.level;
  }

  /** Whether the response body is wanted (RequestResponse on a resource request). */
  get wantsResponseObject(): boolean {
    return levelAtLeast(this.decision.level, 'RequestResponse') && this.event.objectRef !== undefined;
  }

  /** Keeps the first value of a key, as kube does. */
  annotate(key: string, value: string): void {
    if (!(key in this.annotations)) this.annotations[key] = value;
  }

  impersonated(user: UserLike): void {
    this.event.impersonatedUser = { ...eventUser(user), groups: user.groups };
  }

  /**
   * The decoded request object of a resource request (as the handler decoded it, whatever the
   * media type): it completes the object reference and, at level Request and above, is the
   * event's requestObject.
   */
  requestObject(obj: unknown): void {
    const ref = this.event.objectRef;
    if (!ref || typeof obj !== 'object' || obj === null) return;
    const meta = (obj as { metadata?: Record<string, unknown> }).metadata;
    if (meta && typeof meta === 'object') {
      const next = { ...ref };
      const fill = (k: 'namespace' | 'name' | 'uid' | 'resourceVersion') => {
        const v = meta[k];
        if (!next[k] && typeof v === 'string' && v !== '') next[k] = v;
      };
      fill('namespace');
      fill('name');
      fill('uid');
      fill('resourceVersion');
      this.event.objectRef = next;
    }
    this.keepRequestObject(obj);
  }

  /** A patch document: the event's requestObject from level Request; it names no object. */
  requestPatch(patch: unknown): void {
    this.keepRequestObject(patch);
  }

  // A copy, as kube encodes it on the spot: admission and the registry go on to change the object.
  private keepRequestObject(obj: unknown): void {
    if (!levelAtLeast(this.decision.level, 'Request')) return;
    const copy = cloneJson(obj);
    this.event.requestObject = this.decision.omitManagedFields ? stripManagedFields(copy) : copy;
  }

  /** What the handler answered: a Status is copied into responseStatus at every level. */
  responseObject(obj: unknown): void {
    if (isStatus(obj)) {
      const s: { -readonly [K in keyof ResponseStatus]: ResponseStatus[K] } = { metadata: {}, code: 0 };
      if (typeof obj['status'] === 'string' && obj['status'] !== '') s.status = obj['status'];
      if (typeof obj['message'] === 'string' && obj['message'] !== '') s.message = obj['message'];
      if (typeof obj['reason'] === 'string' && obj['reason'] !== '') s.reason = obj['reason'];
      if (obj['details'] !== undefined && obj['details'] !== null) s.details = obj['details'];
      this.event.responseStatus = { ...s, code: this.event.responseStatus?.code ?? 0 };
    }
    if (this.wantsResponseObject && obj !== undefined) {
      this.event.responseObject = this.decision.omitManagedFields ? stripManagedFields(obj) : obj;
    }
  }

  /** A request refused by authentication: its one event is ResponseStarted with this message. */
  authenticationFailed(message: string): void {
    this.event.responseStatus = { metadata: {}, message, code: 0 };
  }

  /** The RequestReceived event; false when a blocking-strict sink could not record it. */
  received(): Promise<boolean> {
    return this.emit('RequestReceived', this.event.requestReceivedTimestamp);
  }

  /** Headers are out on a long-running request (a watch). */
  responseStarted(code: number): Promise<boolean> {
    this.setCode(code);
    return this.emit('ResponseStarted', nowInstant());
  }

  complete(code: number | undefined): Promise<boolean> {
    if (this.done) return Promise.resolve(true);
    this.done = true;
    if (code === undefined) {
      if (!this.event.responseStatus)
        this.event.responseStatus = {
          metadata: {},
          status: 'Success',
          message: 'Connection closed early',
          code: 200,
        };
    } else {
      this.setCode(code);
    }
    return this.emit('ResponseComplete', nowInstant());
  }

  panic(err: unknown): Promise<boolean> {
    if (this.done) return Promise.resolve(true);
    this.done = true;
    this.event.responseStatus = {
      metadata: {},
      status: 'Failure',
      message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`,
      reason: 'InternalError',
      code: 500,
    };
    return this.emit('Panic', nowInstant());
  }

  private setCode(code: number): void {
    this.event.responseStatus = { ...(this.event.responseStatus ?? { metadata: {} }), code };
  }

  private emit(stage: Stage, at: Instant): Promise<boolean> {
    if (this.omitStages.has(stage)) return Promise.resolve(true);
    const ev: AuditEvent = {
      ...this.event,
      stage,
      stageTimestamp: at,
      ...(Object.keys(this.annotations).length > 0 ? { annotations: { ...this.annotations } } : {}),
    };
    this.metrics.eventSent();
    return this.sink.process([ev]);
  }
}
