import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { context } from './context.js';

/** Every response carries `Audit-ID`: the request's own when it sent one, else a new UUID. */
export function withAuditID(): RequestHandler {
  return function auditIDFilter(req, res, next) {
    const sent = req.headers['audit-id'];
    const id = typeof sent === 'string' && sent.trim() !== '' ? sent.trim() : randomUUID();
    context(res).auditID = id;
    res.setHeader('Audit-ID', id);
    next();
  };
}
