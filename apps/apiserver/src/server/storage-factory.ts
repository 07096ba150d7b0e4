import type { Logger } from '@keel/log';
import {
  createMemoryStorage,
  createRedisStorage,
  type EncryptionConfig,
  type Storage,
  type StoreConfig,
} from '@keel/storage';

/** Opens the store --store-servers names: Redis (several URLs: a Cluster), or the embedded memory store. */
export async function openStorage(
  config: StoreConfig,
  logger: Logger,
  encryption?: EncryptionConfig,
): Promise<Storage> {
  const common = {
    ...(encryption ? { encryption } : {}),
    compactionIntervalMs: config.compactionInterval.milliseconds,
    onBackgroundError: (err: unknown, job: string) =>
      logger.warning('Storage background job failed', { job, err }),
  };
  if (config.backend.kind === 'memory') {
    logger.info('Using the embedded in-memory store');
    return createMemoryStorage(common);
  }
  const { urls, tls } = config.backend;
  logger.info('Using Redis', { servers: urls.join(','), prefix: config.prefix });
  return createRedisStorage({
    ...common,
    urls,
    prefix: config.prefix,
    ...(tls ? { tls: { caFile: tls.caFile, certFile: tls.certFile, keyFile: tls.keyFile } } : {}),
  });
}
