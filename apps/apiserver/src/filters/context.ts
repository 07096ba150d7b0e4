import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { UserInfo } from '@keel/auth';
import type { RequestInfo } from '../endpoints/request-info.js';

/** What the filters learn about a request, in the order they learn it. */
export interface RequestContext {
  url: URL;
  info: RequestInfo;
  auditID: string;
  user?: UserInfo;
  /**
   * Set when the request impersonates: the authenticated user, who acts as `user`. The audit
   * names both (its event's user and impersonatedUser).
   */
  originalUser?: UserInfo;
  /** Watches and other streams: exempt from the timeout and the in-flight caps. */
  longRunning: boolean;
  /** The client accepts gzip and the APIResponseCompression gate is on: large bodies are gzipped. */
  gzip?: boolean;
}

const KEY = 'keel';

export function setContext(res: Response, ctx: RequestContext): void {
  res.locals[KEY] = ctx;
}

export function context(res: Response): RequestContext {
  const ctx = res.locals[KEY] as RequestContext | undefined;
  if (!ctx) throw new Error('request context missing: the request-info filter must run first');
  return ctx;
}

/** The context when the chain set one (a response written before request info has none). */
export function maybeContext(res: ServerResponse): RequestContext | undefined {
  return (res as Partial<Response>).locals?.[KEY] as RequestContext | undefined;
}

/**
 * The context as a handler sees it: handlers take the plain ServerResponse, which the chain
 * gave them as Express's response (a ServerResponse with its locals).
 */
export function handlerContext(res: ServerResponse): RequestContext {
  return context(res as Response);
}
