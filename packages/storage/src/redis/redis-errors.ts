import { isStorageError, storageTimeout, unreachable } from '../errors.js';

/** Server replies that mean "Redis cannot serve right now", not "the request is wrong". */
const transientReply = /^(LOADING|BUSY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|READONLY|NOREPLICAS|OOM|MOVED|ASK)\b/;

/**
 * Maps ioredis failures onto storage codes. Connection problems (offline, connection lost,
 * retries exhausted) are Unreachable; a command without a reply in time is Timeout — for a
 * write its outcome is unknown, as with an etcd timeout. Other server replies (a script bug)
 * are returned unchanged so they surface as internal errors.
 */
export function mapRedisError(err: unknown): unknown {
  if (isStorageError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (/command timed out/i.test(message)) return storageTimeout('redis command', err);
  if (err instanceof Error && err.name === 'ReplyError' && !transientReply.test(message)) return err;
  return unreachable(err);
}

export function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('NOSCRIPT');
}
