/**
 * Calls one webhook over HTTPS, as upstream's webhook ClientManager and rest client do: the
 * configuration's caBundle (system roots without one), the server's --proxy-client-cert-file
 * identity, a `?timeout=<n>s` hint and a deadline of timeoutSeconds. One client per URL, CA and
 * identity, kept while the configuration is. Failures come back in Go's words
 * (`Post "https://…": dial tcp 127.0.0.1:1: connect: connection refused`).
 */
import { connect, type Socket } from 'node:net';
import { StatusError } from '@keel/apimachinery';
import { NetworkError, RestClient, type Connection, type Dialer } from '@keel/client';
import { keelVersion } from '@keel/apimachinery';
import type { WebhookSpec } from './config.js';
import { resolveService, type ReadObject, type ServiceRouting } from './service-resolver.js';

/** How webhooks named by a Service are reached. */
export interface ServiceCalls {
  readonly routing: ServiceRouting;
  readonly read: ReadObject;
  /** Upstream dials Services through the `cluster` egress network; undefined: directly. */
  readonly dial?: Dialer | undefined;
}

function tcpDial(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** The PEM identity the server presents to webhooks (--proxy-client-cert-file/--proxy-client-key-file). */
export interface ClientIdentity {
  readonly cert: string;
  readonly key: string;
}

/** A failure to reach or hear from a webhook: `reason` is what follows `failed calling webhook "x": `. */
export class WebhookCallError extends Error {
  constructor(
    readonly reason: string,
    /** The status upstream attaches: the webhook's own error answer; undefined when it gave none. */
    readonly statusCode: number | undefined,
  ) {
    super(reason);
    this.name = 'WebhookCallError';
  }
}

const TLS_UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** What Go's transport says for the failure `err`, found in undici's nested causes. */
function goTransportError(url: URL, err: unknown): string {
  if (err instanceof NetworkError && err.timedOut) return 'context deadline exceeded';
  const host = url.port ? url.host : `${url.hostname}:443`;
  let innermost = err instanceof Error ? err.message : String(err);
  for (let cur: unknown = err, depth = 0; cur instanceof Error && depth < 6; depth++, cur = cur.cause) {
    const code = (cur as NodeJS.ErrnoException).code ?? '';
    if (code === 'ECONNREFUSED') return `dial tcp ${host}: connect: connection refused`;
    if (code === 'ENOTFOUND') return `dial tcp: lookup ${url.hostname}: no such host`;
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'EOF';
    if (TLS_UNKNOWN_AUTHORITY.has(code))
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    if (code === 'CERT_HAS_EXPIRED')
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
      return `tls: failed to verify certificate: x509: ${cur.message}`;
    if (cur.message) innermost = cur.message;
  }
  return innermost;
}

export class WebhookClients {
  private readonly clients = new Map<string, RestClient>();

  constructor(
    private readonly identity: ClientIdentity | undefined,
    /** Upstream calls URL webhooks through the controlplane egress network. */
    private readonly dial?: Dialer,
    private readonly services?: ServiceCalls,
  ) {}

  private clientFor(url: URL, caBundle: string | undefined, dial: Dialer | undefined): RestClient {
    // A Service's client dials through its resolver: never shared with a URL hook's.
    const key = `${dial === this.dial ? 'url' : 'service'}\n${url.origin}\n${caBundle ?? ''}`;
    let client = this.clients.get(key);
    if (!client) {
      const ca = caBundle ? Buffer.from(caBundle, 'base64').toString('utf8') : undefined;
      const connection: Connection = {
        server: new URL(url.origin),
        insecureSkipTLSVerify: false,
        ...(ca ? { ca } : {}),
        ...(this.identity ? { cert: this.identity.cert, key: this.identity.key } : {}),
      };
      client = new RestClient(connection, {
        rateLimiter: null,
        userAgent: `keel-apiserver/${keelVersion}`,
        dial,
      });
      this.clients.set(key, client);
    }
    return client;
  }

  /**
   * Where `hook` is called: its URL, or for a service reference upstream's
   * `https://<name>.<namespace>.svc:<port><path>` (the name its certificate must carry), dialed
   * at the address the service resolver picks when the connection is made.
   */
  private target(hook: WebhookSpec): { url: URL; href: string; dial: Dialer | undefined } {
    const { url: raw, service } = hook.clientConfig;
    if (raw !== undefined || !service) {
      const url = new URL(raw ?? '');
      return { url, href: url.href, dial: this.dial };
    }
    const port = service.port ?? 443;
    const path = service.path ?? '/';
    const host = `${service.name}.${service.namespace}.svc`;
    const services = this.services;
    if (!services) throw new Error('webhooks named by a Service cannot be called: no service resolver');
    const dial: Dialer = async () => {
      const target = await resolveService(
        services.routing,
        services.read,
        service.namespace,
        service.name,
        port,
      );
      return (services.dial ?? tcpDial)(target.host, target.port);
    };
    // Go keeps an explicit :443 in the URL it reports; WHATWG URLs drop it.
    return { url: new URL(`https://${host}:${port}${path}`), href: `https://${host}:${port}${path}`, dial };
  }

  /** POSTs `review` and returns the parsed answer. Throws WebhookCallError. */
  async call(hook: WebhookSpec, review: unknown): Promise<unknown> {
    const { url, href, dial } = this.target(hook);
    const timeoutSeconds = hook.timeoutSeconds ?? 10;
    const shown = `${href}${href.includes('?') ? '&' : '?'}timeout=${timeoutSeconds}s`;
    try {
      return await this.clientFor(url, hook.clientConfig.caBundle, dial).request('POST', url.pathname, {
        body: review,
        query: { timeout: `${timeoutSeconds}s` },
        timeoutMs: timeoutSeconds * 1000,
      });
    } catch (err) {
      if (err instanceof StatusError)
        throw new WebhookCallError(`failed to call webhook: ${err.message}`, err.status.code ?? 500);
      throw new WebhookCallError(
        `failed to call webhook: Post "${shown}": ${goTransportError(url, err)}`,
        undefined,
      );
    }
  }
}
