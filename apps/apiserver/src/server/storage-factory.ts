import type { Logger } from '@keel/log';
import {
  createMemoryStorage,
  createRedisStorage,
  RoutingStorage,
  type EncryptionConfig,
  type RedisBackend,
  type Storage,
  type StoreConfig,
  type StoreDialer,
  type WatchCacheSize,
} from '@keel/storage';
import { storeEndpoint } from '../metrics/index.js';
import { storedEncoding } from './stored-encoding.js';

/** The store the server uses, and each store behind it with its endpoint (the size metric's label). */
export interface OpenedStorage {
  readonly storage: Storage;
  readonly parts: readonly { readonly endpoint: string; readonly storage: Storage }[];
}

/**
 * Opens the store --store-servers names: Redis (several URLs, or one of a server in cluster mode:
 * a Cluster, sharded by resource), or the embedded memory
 * store; with --store-servers-overrides, also one Redis store per override, each resource's calls
 * routed to its own.
 */
export async function openStorage(
  config: StoreConfig,
  logger: Logger,
  extra: {
    readonly encryption?: EncryptionConfig;
    readonly watchCache?: (keyRoot: string) => WatchCacheSize;
    /** The `etcd` egress proxy's tunnel (--egress-selector-config-file). */
    readonly dial?: StoreDialer | undefined;
  } = {},
): Promise<OpenedStorage> {
  const { dial, ...rest } = extra;
  const common = {
    ...rest,
    compactionIntervalMs: config.compactionInterval.milliseconds,
    onBackgroundError: (err: unknown, job: string) =>
      logger.warning('Storage background job failed', { job, err }),
  };
  // --storage-media-type acts on Redis, whose values are the stored bytes (upstream's etcd); the
  // embedded store keeps objects in memory, where an encoding would only cost time.
  const encoding =
    config.backend.kind === 'redis' || config.overrides.length > 0
      ? await storedEncoding(config.mediaType)
      : undefined;
  const redis = (backend: RedisBackend) => {
    const { urls, tls } = backend;
    return createRedisStorage({
      ...common,
      ...(encoding ? { storedEncoding: encoding } : {}),
      urls,
      dial,
      prefix: config.prefix,
      ...(tls ? { tls: { caFile: tls.caFile, certFile: tls.certFile, keyFile: tls.keyFile } } : {}),
      onTopology: ({ cluster }) => {
        if (cluster)
          logger.info('Redis is a Cluster: each resource has its own hash tag and resourceVersion sequence', {
            servers: urls.join(','),
          });
      },
    });
  };
  let main: Storage;
  if (config.backend.kind === 'memory') {
    logger.info('Using the embedded in-memory store');
    main = createMemoryStorage(common);
  } else {
    logger.info('Using Redis', { servers: config.backend.urls.join(','), prefix: config.prefix });
    main = await redis(config.backend);
  }
  const parts = [{ endpoint: storeEndpoint(config.backend), storage: main }];
  if (config.overrides.length === 0) return { storage: main, parts };
  const routes = new Map<string, Storage>();
  for (const o of config.overrides) {
    logger.info('Using Redis for one resource', {
      resource: o.group === '' ? o.resource : `${o.resource}.${o.group}`,
      servers: o.backend.urls.join(','),
    });
    const storage = await redis(o.backend);
    routes.set(`/${o.resource}`, storage);
    parts.push({ endpoint: storeEndpoint(o.backend), storage });
  }
  return { storage: new RoutingStorage(main, routes), parts };
}
