import { GenericStorage, type CommonStorageOptions } from '../generic-storage.js';
import { MemoryBackend, type Clock } from './memory-backend.js';
import type { Storage } from '../storage.js';

export interface MemoryStorageOptions extends CommonStorageOptions {
  /**
   * Accepted for symmetry with Redis (`--store-prefix`); one process owns the memory store, so
   * there is nothing to keep apart and keys are stored as given.
   */
  readonly prefix?: string;
  /** Time source for TTL expiry. @default Date.now */
  readonly clock?: Clock;
}

/**
 * The default store: no setup, nothing survives the process. Writes, lists and watches behave
 * exactly like the Redis store (both pass the same conformance suite).
 */
export function createMemoryStorage(opts: MemoryStorageOptions = {}): Storage {
  return new GenericStorage(new MemoryBackend(opts.clock), opts);
}
