import type { IncomingMessage } from 'node:http';
import { fieldManagerFromUserAgent, type WriteOptions } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import { auditOf } from '../../filters/audit.js';
import type { WriteContext } from '../../registry/generic-store.js';

/** The manager a write is recorded under: `?fieldManager`, else the User-Agent up to its first `/`. */
export function writeContext(req: IncomingMessage, opts: WriteOptions, user: UserInfo): WriteContext {
  const fieldManager =
    opts.fieldManager !== '' ? opts.fieldManager : fieldManagerFromUserAgent(req.headers['user-agent'] ?? '');
  const audit = auditOf(req);
  return {
    dryRun: opts.dryRun,
    fieldManager,
    user,
    ...(audit ? { annotate: (key: string, value: string) => audit.annotate(key, value) } : {}),
  };
}
