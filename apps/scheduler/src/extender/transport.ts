/**
 * The HTTP side of one extender (kube's HTTPExtender.send and makeTransport): a keep-alive agent
 * with the extender's TLS settings, a deadline over each whole exchange, and failures worded as Go's
 * net/http words them, since they end up in FailedScheduling events.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Extender } from '../options/extender-config.js';
import { DecodeError } from './wire.js';

/** kube's DefaultExtenderTimeout, used when `httpTimeout` is 0. */
export const DEFAULT_EXTENDER_TIMEOUT_MS = 5_000;

/** Go's syscall error texts for the errno codes a file read or a dial commonly fails with. */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ECONNREFUSED: 'connection refused',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  ECONNRESET: 'connection reset by peer',
};

const errnoText = (err: NodeJS.ErrnoException) =>
  (err.code && ERRNO_TEXT[err.code]) ?? err.message.replace(/^\w+: /, '');

function readPem(data: string, file: string): Buffer | undefined {
  if (data !== '') return Buffer.from(data, 'base64');
  if (file === '') return undefined;
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`open ${file}: ${errnoText(err as NodeJS.ErrnoException)}`, { cause: err });
  }
}

/**
 * kube's makeTransport over client-go's TLSConfigFor: the scheme of `urlPrefix` alone decides
 * between HTTP and HTTPS; `enableHTTPS` without a CA skips verification. Throws (at start-up) for
 * unreadable files and for a CA combined with `insecure`.
 */
export function tlsOptions(config: Extender): https.AgentOptions {
  const t = config.tlsConfig;
  const ca = readPem(t?.caData ?? '', t?.caFile ?? '');
  const cert = readPem(t?.certData ?? '', t?.certFile ?? '');
  const key = readPem(t?.keyData ?? '', t?.keyFile ?? '');
  const insecure = (t?.insecure ?? false) || (config.enableHTTPS && !ca);
  if (insecure && ca)
    throw new Error('specifying a root certificates file with the insecure flag is not allowed');
  return {
    rejectUnauthorized: !insecure,
    ...(ca ? { ca } : {}),
    // client-go presents a client certificate only when it has both halves.
    ...(cert && key ? { cert, key } : {}),
    ...(t?.serverName ? { servername: t.serverName } : {}),
  };
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

interface TlsNameError extends NodeJS.ErrnoException {
  host?: string;
  cert?: { subjectaltname?: string };
}

/** Go's text for a failed exchange, without the `Post "<url>": ` prefix. */
function transportReason(err: NodeJS.ErrnoException, url: URL): string {
  const code = err.code ?? '';
  if (UNKNOWN_AUTHORITY.has(code))
    return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED')
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const e = err as TlsNameError;
    const host = e.host ?? url.hostname;
    const isIP = /^[\d.]+$|:/.test(host);
    const names = (e.cert?.subjectaltname ?? '')
      .split(', ')
      .filter((n) => n.startsWith(isIP ? 'IP Address:' : 'DNS:'))
      .map((n) => n.slice(n.indexOf(':') + 1));
    return `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${host}`;
  }
  if (code === 'ENOTFOUND') return `dial tcp: lookup ${url.hostname}: no such host`;
  if (code === 'ECONNRESET' && err.message === 'socket hang up') return 'EOF';
  if (code in ERRNO_TEXT) {
    const op = code === 'ECONNRESET' ? 'read' : 'connect';
    return `dial tcp ${url.host}: ${op}: ${ERRNO_TEXT[code] ?? ''}`;
  }
  return err.message;
}

class Timeout extends Error {}

export interface ExtenderTransport {
  /** POSTs `args` as JSON to `<urlPrefix>/<verb>` and returns the decoded answer of a 200. */
  post(verb: string, args: unknown): Promise<unknown>;
  close(): void;
}

export function newTransport(config: Extender): ExtenderTransport {
  const tls = tlsOptions(config);
  const httpAgent = new http.Agent({ keepAlive: true });
  const httpsAgent = new https.Agent({ keepAlive: true, ...tls });
  const ns = config.httpTimeout.nanoseconds;
  // As in Go's http.Client, a negative timeout means none.
  const timeoutMs =
    ns === 0n ? DEFAULT_EXTENDER_TIMEOUT_MS : ns < 0n ? 0 : Math.max(1, Number(ns / 1_000_000n));
  const prefix = config.urlPrefix.replace(/\/+$/, '');

  const post = (verb: string, args: unknown): Promise<unknown> => {
    const target = `${prefix}/${verb}`;
    const wrap = (reason: string) => new Error(`Post ${JSON.stringify(target)}: ${reason}`);
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return Promise.reject(wrap('unsupported protocol scheme ""'));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(wrap(`unsupported protocol scheme ${JSON.stringify(url.protocol.slice(0, -1))}`));
    const body = JSON.stringify(args);
    return new Promise((resolve, reject) => {
      let headersIn = false;
      let timer: NodeJS.Timeout | undefined;
      const settle = (err: Error | undefined, value?: unknown) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(value);
      };
      const mod = url.protocol === 'https:' ? https : http;
      const req = mod.request(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? httpsAgent : httpAgent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          headersIn = true;
          if (res.statusCode !== 200) {
            res.resume();
            settle(new Error(`failed ${verb} with extender at URL ${target}, code ${res.statusCode ?? 0}`));
            return;
          }
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => settle(bodyError(err)));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (text.trim() === '') return settle(new DecodeError('EOF'));
            try {
              settle(undefined, JSON.parse(text));
            } catch (err) {
              settle(new DecodeError((err as Error).message));
            }
          });
        },
      );
      const bodyError = (err: Error) =>
        err instanceof Timeout
          ? new Error('context deadline exceeded (Client.Timeout or context cancellation while reading body)')
          : err;
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (headersIn) return settle(bodyError(err));
        settle(
          wrap(
            err instanceof Timeout
              ? 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)'
              : transportReason(err, url),
          ),
        );
      });
      if (timeoutMs > 0) timer = setTimeout(() => req.destroy(new Timeout()), timeoutMs);
      req.end(body);
    });
  };

  return {
    post,
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
