/** The resource lock abstraction (client-go resourcelock.Interface). */
import type { RequestOptions } from './object-client.js';
import type { LeaderElectionRecord } from './record.js';

export interface LockGetResult {
  readonly record: LeaderElectionRecord;
  /**
   * The record as stored, compared between reads to decide whether anything changed (client-go
   * compares the raw bytes). Locks return JSON text, so two equal reads give equal values.
   */
  readonly raw: unknown;
}

export interface Lock {
  /** Reads the record; `undefined` when the object does not exist. Other failures throw. */
  get(options?: RequestOptions): Promise<LockGetResult | undefined>;
  /** Creates the object holding `record`; throws (reason `AlreadyExists`) if it exists. */
  create(record: LeaderElectionRecord, options?: RequestOptions): Promise<void>;
  /**
   * Replaces the record in the object last read or written, conditional on its resourceVersion;
   * throws (reason `Conflict`) when someone else wrote it in between.
   */
  update(record: LeaderElectionRecord, options?: RequestOptions): Promise<void>;
  /** This candidate's identity. */
  identity(): string;
  /** `namespace/name` of the lock, for messages. */
  describe(): string;
  /** Emits a `LeaderElection` event with message `<identity> <message>` about the lock object. */
  recordEvent(message: string): void;
}

/** The object an event is about: the lock object with its type meta filled in. */
export interface EventSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** The part of client-go's record.EventRecorder the locks use. */
export interface EventRecorder {
  event(subject: EventSubject, eventType: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** client-go resourcelock.ResourceLockConfig. */
export interface LockConfig {
  readonly identity: string;
  /** Events are dropped when there is no recorder, as in client-go. */
  readonly recorder?: EventRecorder | undefined;
}

export const LEADER_ELECTION_EVENT_REASON = 'LeaderElection';

/** Shared by the locks: the event client-go's RecordEvent emits. */
export function emitLockEvent(config: LockConfig, subject: EventSubject, message: string): void {
  config.recorder?.event(subject, 'Normal', LEADER_ELECTION_EVENT_REASON, `${config.identity} ${message}`);
}
