import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldManagerFromUserAgent, type WriteOptions } from '@keel/apimachinery';
import type { UserInfo } from '@keel/auth';
import { auditOf } from '../../filters/audit.js';
import type { RequestEffects, WriteContext } from '../../registry/generic-store.js';
import { addWarnings } from './decode.js';

/** Where admission's audit annotations and client warnings of this request go. */
export function requestEffects(req: IncomingMessage, res: ServerResponse): RequestEffects {
  const audit = auditOf(req);
  return {
    warn: (text: string) => addWarnings(res, [text]),
    ...(audit ? { annotate: (key: string, value: string) => audit.annotate(key, value) } : {}),
  };
}

/** The manager a write is recorded under: `?fieldManager`, else the User-Agent up to its first `/`. */
export function writeContext(
  req: IncomingMessage,
  res: ServerResponse,
  opts: WriteOptions,
  user: UserInfo,
): WriteContext {
  const fieldManager =
    opts.fieldManager !== '' ? opts.fieldManager : fieldManagerFromUserAgent(req.headers['user-agent'] ?? '');
  return { dryRun: opts.dryRun, fieldManager, user, ...requestEffects(req, res) };
}
