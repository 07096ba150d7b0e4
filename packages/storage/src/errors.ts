/**
 * Storage errors carry a storage code, never an HTTP status: the API layer translates them
 * (KeyNotFound → 404 NotFound, KeyExists → 409 AlreadyExists, Conflict → 409, Expired → 410,
 * TooLargeResourceVersion → 504, Unreachable → 503, Timeout → 504, InvalidObject → 422 or 400,
 * InvalidContinue → 400 "invalid continue token: ...").
 */
export const storageErrorCodes = [
  'KeyNotFound',
  'KeyExists',
  'Conflict',
  'Unreachable',
  'Timeout',
  'Expired',
  'TooLargeResourceVersion',
  'InvalidObject',
  'InvalidContinue',
] as const;

export type StorageErrorCode = (typeof storageErrorCodes)[number];

export interface StorageErrorDetails {
  /** The storage key the operation was about, when there is one. */
  readonly key?: string;
  /** The resourceVersion the caller asked for (Expired, TooLargeResourceVersion) or held (Conflict). */
  readonly resourceVersion?: string;
  /** The store's current resourceVersion (TooLargeResourceVersion) or the key's current one (Conflict). */
  readonly currentResourceVersion?: string;
  /** The oldest resourceVersion still in the history window (Expired). */
  readonly oldestResourceVersion?: string;
  /**
   * On an Expired continue token: a fresh token that continues the same list at the latest
   * resourceVersion (Kubernetes puts it in the 410 Status's metadata.continue).
   */
  readonly continueKey?: string;
  readonly cause?: unknown;
}

/** The one error type `@keel/storage` throws for expected failures. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly key: string | undefined;
  readonly resourceVersion: string | undefined;
  readonly currentResourceVersion: string | undefined;
  readonly oldestResourceVersion: string | undefined;
  readonly continueKey: string | undefined;

  constructor(
    readonly code: StorageErrorCode,
    message: string,
    details: StorageErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.key = details.key;
    this.resourceVersion = details.resourceVersion;
    this.currentResourceVersion = details.currentResourceVersion;
    this.oldestResourceVersion = details.oldestResourceVersion;
    this.continueKey = details.continueKey;
  }
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}

export const keyNotFound = (key: string): StorageError =>
  new StorageError('KeyNotFound', `key not found: ${key}`, { key });

export const keyExists = (key: string): StorageError =>
  new StorageError('KeyExists', `key exists: ${key}`, { key });

/** Precondition failures use the messages of Kubernetes' storage.Preconditions.Check. */
export function preconditionFailed(
  key: string,
  what: 'UID' | 'ResourceVersion',
  expected: string,
  actual: string,
): StorageError {
  return new StorageError(
    'Conflict',
    `Precondition failed: ${what} in precondition: ${expected}, ${what} in object meta: ${actual}`,
    {
      key,
      ...(what === 'ResourceVersion' ? { resourceVersion: expected, currentResourceVersion: actual } : {}),
    },
  );
}

/** Same wording as the Kubernetes watch cache: `too old resource version: 123 (456)`. */
export function tooOldResourceVersion(
  requested: number,
  oldest: number,
  extra: Pick<StorageErrorDetails, 'continueKey'> = {},
): StorageError {
  return new StorageError('Expired', `too old resource version: ${requested} (${oldest})`, {
    resourceVersion: String(requested),
    oldestResourceVersion: String(oldest),
    ...extra,
  });
}

export function tooLargeResourceVersion(requested: number, current: number): StorageError {
  return new StorageError(
    'TooLargeResourceVersion',
    `Too large resource version: ${requested}, current: ${current}`,
    {
      resourceVersion: String(requested),
      currentResourceVersion: String(current),
    },
  );
}

export const invalidObject = (message: string, key?: string): StorageError =>
  new StorageError('InvalidObject', message, key === undefined ? {} : { key });

export const unreachable = (cause: unknown): StorageError =>
  new StorageError(
    'Unreachable',
    `store unreachable: ${cause instanceof Error ? cause.message : String(cause)}`,
    { cause },
  );

export const storageTimeout = (what: string, cause?: unknown): StorageError =>
  new StorageError('Timeout', `store request timed out: ${what}`, cause === undefined ? {} : { cause });
