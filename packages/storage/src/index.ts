export {
  StoreOptions,
  STORAGE_BACKEND,
  STORAGE_MEDIA_TYPES,
  type RedisBackend,
  type StorageMediaType,
  type StoreBackend,
  type StoreConfig,
  type StoreOverride,
  type StoreTls,
} from './store-options.js';
export type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Preconditions,
  Predicate,
  ResourceVersionMatch,
  Storage,
  StoredMeta,
  StoredObject,
  TtlOption,
  UpdateOptions,
  WatchEvent,
  WatchOptions,
  WatchSink,
} from './storage.js';
export {
  isStorageError,
  StorageError,
  storageErrorCodes,
  type StorageErrorCode,
  type StorageErrorDetails,
} from './errors.js';
export { decodeContinue, encodeContinue, type ContinuePosition } from './continue.js';
export type { CommonStorageOptions } from './generic-storage.js';
export type { WatchCacheSize } from './watch-cache/watch-caches.js';
export { createMemoryStorage, type MemoryStorageOptions } from './memory/memory-storage.js';
export type { Clock } from './memory/memory-backend.js';
export { createRedisStorage } from './redis/lazy.js';
export type {
  RedisClientStorageOptions,
  RedisStorageOptions,
  RedisTopology,
  RedisUrlStorageOptions,
} from './redis/redis-storage.js';
export type { RedisClient, RedisConnectionOptions, RedisTlsFiles } from './redis/connection.js';
export type { StoreDialer } from './redis/egress-connector.js';
export {
  StoreInformer,
  type InformerChange,
  type ProjectingInformerOptions,
  type StoreInformerOptions,
} from './informer.js';
export { EncryptionConfig, loadEncryptionConfig, parseEncryptionConfig } from './encryption/index.js';
export { withStoreSpans } from './traced-storage.js';
export { RoutingStorage } from './routing-storage.js';
export { ShardedStorage } from './sharded-storage.js';
export { isProtobufValue, PROTOBUF_MAGIC, type StoredEncoding } from './media/encoding-backend.js';
