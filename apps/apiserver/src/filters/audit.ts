import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Request, RequestHandler, Response } from 'express';
import { sourceIPs, type Auditor, type RequestAudit } from '@keel/audit';
import type { UserInfo } from '@keel/auth';
import { context } from './context.js';

const AUDIT = Symbol('keel.audit');
type AuditedRequest = IncomingMessage & { [AUDIT]?: RequestAudit };

/**
 * The request's audit, when the policy audits it. Kept on the request itself because the body
 * reader and the recovery filter see only the request.
 */
export function auditOf(req: IncomingMessage): RequestAudit | undefined {
  return (req as AuditedRequest)[AUDIT];
}

/**
 * Hands the object a handler decoded to the audit: objectRef details, and requestObject from
 * level Request. The handler's own decoding is reused, so a Metadata policy parses nothing twice.
 */
export function auditRequestObject(req: IncomingMessage, obj: unknown): void {
  auditOf(req)?.requestObject(obj);
}

/** Hands a decoded patch document to the audit: the requestObject from level Request. */
export function auditRequestPatch(req: IncomingMessage, patch: unknown): void {
  auditOf(req)?.requestPatch(patch);
}

const STATUS_HEAD = /"kind":\s*"Status"/;

function chunkText(chunk: unknown, encoding: unknown): string | undefined {
  if (typeof chunk === 'string') return chunk;
  if (Buffer.isBuffer(chunk))
    return chunk.toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return undefined;
}

/**
 * Follows the response: ResponseStarted when a watch sends its headers, the body when the level
 * wants it (or when it is a Status, which goes into responseStatus), and ResponseComplete before
 * the response is let go, so a blocking sink's write finishes before the client has the answer.
 */
function followResponse(
  res: ServerResponse,
  audit: RequestAudit,
  longRunning: boolean,
  onEnd: () => void,
): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const captured: string[] = [];
  const capture = audit.wantsResponseObject && !longRunning;
  let started = false;
  let ending = false;
  Object.assign(res, {
    writeHead(...args: unknown[]) {
      if (!started && longRunning) void audit.responseStarted(Number(args[0]));
      started = true;
      return writeHead(...args);
    },
    ...(capture
      ? {
          write(...args: unknown[]) {
            const text = chunkText(args[0], args[1]);
            if (text !== undefined) captured.push(text);
            return write(...args);
          },
        }
      : {}),
    end(...args: unknown[]) {
      if (ending) return res;
      ending = true;
      const last = typeof args[0] === 'function' ? undefined : chunkText(args[0], args[1]);
      const json = /json/.test(String(res.getHeader('content-type') ?? ''));
      if (json && last !== undefined && (capture || STATUS_HEAD.test(last.slice(0, 64)))) {
        try {
          audit.responseObject(JSON.parse(capture ? captured.join('') + last : last));
        } catch {
          // Not one JSON document (a stream cut short): the event keeps just the code.
        }
      }
      onEnd();
      audit.complete(res.statusCode).then(
        () => end(...args),
        () => end(...args),
      );
      return res;
    },
  });
  res.once('close', () => void audit.complete(res.headersSent ? res.statusCode : undefined));
}

function begin(
  auditor: Auditor,
  req: Request,
  res: Response,
  entered: UserInfo | undefined,
): RequestAudit | undefined {
  const ctx = context(res);
  const { info } = ctx;
  return auditor.begin(
    {
      user: entered,
      verb: info.verb,
      isResourceRequest: info.isResourceRequest,
      path: info.path,
      namespace: info.namespace,
      apiGroup: info.apiGroup,
      resource: info.resource,
      subresource: info.subresource,
      name: info.name,
    },
    () => ({
      auditID: ctx.auditID,
      requestURI: req.originalUrl,
      verb: info.verb,
      user: entered ?? { name: '', uid: '', groups: [], extra: {} },
      sourceIPs: sourceIPs(req.headers, req.socket.remoteAddress),
      userAgent: req.headers['user-agent'] ?? '',
      objectRef: info.isResourceRequest
        ? {
            ...(info.resource ? { resource: info.resource } : {}),
            ...(info.namespace ? { namespace: info.namespace } : {}),
            ...(info.name ? { name: info.name } : {}),
            ...(info.apiGroup ? { apiGroup: info.apiGroup } : {}),
            ...(info.apiVersion ? { apiVersion: info.apiVersion } : {}),
            ...(info.subresource ? { subresource: info.subresource } : {}),
          }
        : undefined,
    }),
  );
}

/** kube's getAuthMethods: what the refused request tried. */
function attemptedMethods(req: Request, res: Response): string {
  const methods: string[] = [];
  const auth = (req.headers.authorization ?? '').trim();
  const scheme = auth.split(' ');
  if (/^basic$/i.test(scheme[0] ?? '') && Buffer.from(scheme[1] ?? '', 'base64').includes(':'))
    methods.push('basic');
  if (scheme.length > 1 && (scheme[0] ?? '').toLowerCase() === 'bearer') methods.push('bearer');
  if ((context(res).url.searchParams.get('access_token') ?? '').trim() !== '') methods.push('access_token');
  const peer = (req.socket as TLSSocket).getPeerCertificate?.();
  if (peer && Object.keys(peer).length > 0) methods.push('x509');
  return methods.length > 0
    ? `Authentication failed, attempted: ${methods.join(', ')}`
    : 'Authentication failed, no credentials provided';
}

/**
 * A request authentication refused is audited too (kube's failed-authentication audit): one
 * ResponseStarted event, no user, the 401's code and what was attempted.
 */
export function auditFailedAuthentication(auditor: Auditor | undefined, req: Request, res: Response): void {
  if (!auditor) return;
  const audit = begin(auditor, req, res, undefined);
  if (!audit) return;
  audit.authenticationFailed(attemptedMethods(req, res));
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
  let started = false;
  Object.assign(res, {
    writeHead(...args: unknown[]) {
      if (!started) void audit.responseStarted(Number(args[0]));
      started = true;
      return writeHead(...args);
    },
  });
}

/** Where the filter counts the requests it refuses (apiserver_audit_requests_rejected_total). */
export interface AuditRejections {
  requestRejected(): void;
}

/**
 * Audits requests as the policy says: after authentication (the event names the user), before
 * impersonation and authorization (refused requests are audited too). Without an auditor (no
 * --audit-policy-file) it passes every request through; a request the policy does not audit
 * costs one policy check.
 */
export function withAudit(auditor: Auditor | undefined, rejections: AuditRejections): RequestHandler {
  if (!auditor) {
    return function auditFilter(_req, _res, next) {
      next();
    };
  }
  return function auditFilter(req, res, next) {
    const ctx = context(res);
    const entered: UserInfo | undefined = ctx.user;
    const audit = begin(auditor, req, res, entered);
    if (!audit) {
      next();
      return;
    }
    (req as AuditedRequest)[AUDIT] = audit;
    audit.received().then(
      (recorded) => {
        if (!recorded) {
          // blocking-strict: a request that cannot be audited is not served (kube's 500).
          rejections.requestRejected();
          res.writeHead(500, {
            'Content-Type': 'text/plain; charset=utf-8',
            'X-Content-Type-Options': 'nosniff',
          });
          res.end(`Internal Server Error: ${JSON.stringify(req.originalUrl)}: failed to store audit event\n`);
          return;
        }
        followResponse(res, audit, ctx.longRunning, () => {
          // Impersonation, further down, replaces the context's user with the one acted as.
          if (ctx.user && ctx.user !== entered) audit.impersonated(ctx.user);
        });
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
