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
