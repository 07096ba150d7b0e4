import type { IncomingMessage } from 'node:http';
import { fieldManagerFromUserAgent, type WriteOptions } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import type { WriteContext } from '../../registry/generic-store.js';

/** The manager a write is recorded under: `?fieldManager`, else the User-Agent up to its first `/`. */
export function writeContext(req: IncomingMessage, opts: WriteOptions, user: UserInfo): WriteContext {
  const fieldManager =
    opts.fieldManager !== '' ? opts.fieldManager : fieldManagerFromUserAgent(req.headers['user-agent'] ?? '');
  return { dryRun: opts.dryRun, fieldManager, user };
}
