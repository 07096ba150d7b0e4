import type { IncomingMessage } from 'node:http';
import { fieldManagerFromUserAgent, type WriteOptions } from '@keel/apimachinery';
import type { WriteContext } from '../../registry/generic-store.js';

/** The manager a write is recorded under: `?fieldManager`, else the User-Agent up to its first `/`. */
export function writeContext(req: IncomingMessage, opts: WriteOptions): WriteContext {
  const fieldManager =
    opts.fieldManager !== '' ? opts.fieldManager : fieldManagerFromUserAgent(req.headers['user-agent'] ?? '');
  return { dryRun: opts.dryRun, fieldManager };
}
