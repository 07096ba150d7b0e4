import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { context } from './context.js';

/** The request's own `Audit-ID` when it sent one, else a new UUID. */
export function auditIDOf(req: IncomingMessage): string {
  const sent = req.headers['audit-id'];
  return typeof sent === 'string' && sent.trim() !== '' ? sent.trim() : randomUUID();
}

/** Every response carries `Audit-ID`: the request's own when it sent one, else a new UUID. */
export function withAuditID(): RequestHandler {
  return function auditIDFilter(req, res, next) {
    const id = auditIDOf(req);
    context(res).auditID = id;
    res.setHeader('Audit-ID', id);
    next();
  };
}
