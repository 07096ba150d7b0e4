import { createPrivateKey } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer as createHttp2SecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo, ListenOptions } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from '@keel/log';
import { Drainer, type RequestHandler, type ShutdownOptions, type ShutdownResult } from './drain.js';
import { ServingError } from './errors.js';
import { adaptHttp2Exchange } from './http2/exchange.js';
import type { Http1Classes } from './http2/express-bridge.js';
import { manageSession, maxConcurrentStreams, serverSettings } from './http2/settings.js';
import type { SecureServingConfig } from './secure-serving-options.js';
import { errorMessage, readCertKeyFiles, type CertKeyPair, parseCertKeyPair } from './tls/cert-key.js';
import { ensureSelfSignedCert, selfSignedHosts, type SelfSignedFileNames } from './tls/self-signed.js';
import { loadSniCertificates, sniCallback } from './tls/sni.js';
import { cipherKeyMismatch, contextOptions, serverTlsOptions } from './tls/tls-options.js';

export interface SecureServerOptions {
  readonly config: SecureServingConfig;
  readonly handler: RequestHandler;
  readonly logger: Logger;
  /** Names a generated self-signed certificate covers; default: selfSignedHosts({ bindAddress }). */
  readonly hosts?: readonly string[];
  /** File names in --cert-dir for the self-signed pair; default apiserver.crt / apiserver.key / ca.crt. */
  readonly certFileNames?: SelfSignedFileNames;
  /**
   * Client CA bundle (PEM, see readCABundle): client certificates are requested and verified
   * against it. A promise (the scheduler looks its CAs up in the API server) is awaited while the
   * serving certificate loads or is generated, so the two overlap.
   */
  readonly clientCA?: string | Promise<string | undefined>;
  readonly isLongRunning?: (req: IncomingMessage) => boolean;
  readonly isExemptFromRetryAfter?: (req: IncomingMessage) => boolean;
  /** The classes HTTP/1.1 requests and responses are made of (http1Classes of an Express app). */
  readonly http1?: Http1Classes;
  /** For tests: the grace a connection without a request gets once the listener closes (default 5 s). */
  readonly newConnectionGraceMs?: number;
}

/** The certificate the listener presents when no SNI certificate matches. */
export interface ServingCertificate {
  readonly certPem: string;
  /** The CA a client should trust: the self-signed CA, or the chain after the leaf of --tls-cert-file. */
  readonly caPem: string;
  readonly certFile?: string;
  readonly keyFile?: string;
  readonly caFile?: string;
}

export interface ListeningAddress {
  readonly address: string;
  readonly port: number;
}

/** Go's net/http server settings in kube's RunServer, so that clients see the same limits. */
const MAX_HEADER_BYTES = 1 << 20;
const IDLE_TIMEOUT_MS = 90_000;
const READ_HEADER_TIMEOUT_MS = 32_000;

/**
 * The HTTPS listener shared by both daemons: HTTP/2 and HTTP/1.1 on one port, chosen by ALPN with
 * h2 first as Go offers it (a client without ALPN gets HTTP/1.1). Handlers see Node's
 * compatibility request/response for HTTP/2, adapted by adaptHttp2Exchange so that code written
 * for HTTP/1.1 (`Connection: close`, chunked watches, `req.socket`) means the same on a stream;
 * an Express app needs http2Compatible in front of it as well. --http2-max-streams-per-connection
 * is the SETTINGS_MAX_CONCURRENT_STREAMS each session announces (http2/settings.ts). Address
 * sharing (SO_REUSEADDR) is what libuv always does on Unix, so --permit-address-sharing is
 * documented as meaningless; --permit-port-sharing needs Node's `reusePort` (22.12+) and fails
 * start-up on older runtimes.
 *
 * `config.port` 0 binds an ephemeral port: a daemon for which --secure-port 0 means "no HTTPS"
 * must not create the server at all.
 */
export class SecureServer {
  private server?: Http2SecureServer;
  private drainer?: Drainer;
  private cert?: ServingCertificate;

  constructor(private readonly opts: SecureServerOptions) {}

  /** Available after listen(). */
  get servingCertificate(): ServingCertificate | undefined {
    return this.cert;
  }

  get draining(): boolean {
    return this.drainer?.draining ?? false;
  }

  /** Loads certificates (every problem is a one-line ServingError), then binds. */
  async listen(): Promise<ListeningAddress> {
    if (this.server) throw new Error('listen() was already called');
    const { config, logger } = this.opts;
    const listenOpts = this.listenOptions();
    const { clientCA } = this.opts;
    // The TLS settings are checked before any certificate is generated, as with a CA at hand.
    let base = serverTlsOptions(config, typeof clientCA === 'string' ? clientCA : undefined);
    const [pair, lateCA] = await Promise.all([
      this.defaultPair(),
      typeof clientCA === 'string' ? undefined : clientCA,
    ]);
    if (lateCA !== undefined) base = serverTlsOptions(config, lateCA);
    const mismatch = cipherKeyMismatch(config.opensslCiphers, createPrivateKey(pair.keyPem));
    if (mismatch !== undefined) logger.warning(mismatch);
    const sni = loadSniCertificates(config.sniCertKeys);
    sni.forEach((c, index) =>
      logger.v(2).info('Loaded SNI cert', {
        index,
        certName: `sni-serving-cert::${c.certFile}::${c.keyFile}`,
        names: c.explicitNames,
      }),
    );
    const callback = sniCallback(sni, base);
    const maxStreams = maxConcurrentStreams(config.http2MaxStreamsPerConnection);
    const server = createHttp2SecureServer({
      ...contextOptions(base, pair.certPem, pair.keyPem),
      requestCert: base.requestCert,
      rejectUnauthorized: false,
      ...(callback ? { SNICallback: callback } : {}),
      allowHTTP1: true,
      ALPNProtocols: ['h2', 'http/1.1'],
      settings: serverSettings(maxStreams),
      ...(this.opts.http1
        ? {
            Http1IncomingMessage: this.opts.http1.IncomingMessage,
            Http1ServerResponse: this.opts.http1.ServerResponse,
          }
        : {}),
    });
    // The HTTP/1.1 side is Node's http server logic running on this server object, which reads
    // these from it; http2's constructor leaves them unset (no keep-alive timeout, no header
    // limit, no Host check), unlike https.createServer.
    Object.assign(server, {
      maxHeaderSize: MAX_HEADER_BYTES,
      keepAliveTimeout: IDLE_TIMEOUT_MS,
      headersTimeout: READ_HEADER_TIMEOUT_MS,
      requireHostHeader: true,
    });
    server.on('session', (session) => manageSession(session, maxStreams));
    const drainer = new Drainer(server, {
      logger,
      ...(this.opts.isLongRunning ? { isLongRunning: this.opts.isLongRunning } : {}),
      ...(this.opts.isExemptFromRetryAfter
        ? { isExemptFromRetryAfter: this.opts.isExemptFromRetryAfter }
        : {}),
      ...(this.opts.newConnectionGraceMs !== undefined
        ? { newConnectionGraceMs: this.opts.newConnectionGraceMs }
        : {}),
    });
    const handle = drainer.wrap(this.opts.handler);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      adaptHttp2Exchange(req, res);
      handle(req, res);
    });
    server.on('tlsClientError', (err: Error, socket: TLSSocket) =>
      logger
        .v(2)
        .info('TLS handshake error', { remote: `${socket.remoteAddress}:${socket.remotePort}`, err }),
    );
    this.server = server;
    this.drainer = drainer;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(new ServingError(listenError(config, err))),
      );
      server.listen(listenOpts, () => resolve());
    });
    server.on('error', (err) => logger.error('HTTPS server error', { err }));
    const addr = server.address() as AddressInfo;
    logger.info(`Serving securely on ${goHostPort(addr.address, addr.port)}`);
    return { address: addr.address, port: addr.port };
  }

  /** See Drainer.trackLongRunning: watches register here so shutdown ends them instead of waiting. */
  trackLongRunning(res: ServerResponse, stop?: () => void): void {
    this.drainer?.trackLongRunning(res, stop);
  }

  /** Graceful drain (kube's graceful termination); resolves once the listener and every connection are closed. */
  async shutdown(opts: ShutdownOptions): Promise<ShutdownResult> {
    if (!this.drainer) return { forced: false, abandonedRequests: 0 };
    return this.drainer.shutdown(opts);
  }

  /** Stops at once: in-flight requests and watches are cut. */
  async close(): Promise<void> {
    if (!this.drainer) return;
    await this.drainer.close();
  }

  private listenOptions(): ListenOptions & { reusePort?: boolean } {
    const { config } = this.opts;
    const all = config.bindAddress === '0.0.0.0' || config.bindAddress === '::' || config.bindAddress === '';
    if (config.permitPortSharing && !supportsReusePort()) {
      throw new ServingError(
        `--permit-port-sharing: SO_REUSEPORT needs Node.js 22.12 or later; this is Node.js ${process.versions.node}`,
      );
    }
    return {
      port: config.port,
      // Go listens on both address families for an unspecified address; Node does so when no host is given.
      ...(all ? {} : { host: config.bindAddress }),
      ...(config.permitPortSharing ? { reusePort: true } : {}),
    };
  }

  private async defaultPair(): Promise<CertKeyPair> {
    const { config } = this.opts;
    if (config.certFile !== '' && config.keyFile !== '') {
      let pair: CertKeyPair;
      try {
        pair = readCertKeyFiles(config.certFile, config.keyFile);
      } catch (err) {
        throw new ServingError(
          `--tls-cert-file/--tls-private-key-file (${config.certFile}, ${config.keyFile}): ` +
            `unable to load server certificate: ${errorMessage(err)}`,
        );
      }
      const caPem = pair.chain.map((c) => c.toString()).join('');
      this.cert = { certPem: pair.certPem, caPem, certFile: config.certFile, keyFile: config.keyFile };
      return pair;
    }
    const self = await ensureSelfSignedCert({
      certDir: config.certDir,
      hosts: this.opts.hosts ?? selfSignedHosts({ bindAddress: config.bindAddress }),
      ...(this.opts.certFileNames ? { fileNames: this.opts.certFileNames } : {}),
      logger: this.opts.logger,
    });
    this.cert = self;
    return parseCertKeyPair(self.certPem, self.keyPem);
  }
}

export function createSecureServer(opts: SecureServerOptions): SecureServer {
  return new SecureServer(opts);
}

function supportsReusePort(): boolean {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

/** kube's wording: "failed to listen on 0.0.0.0:6443: listen tcp 0.0.0.0:6443: bind: address already in use". */
function listenError(config: SecureServingConfig, err: NodeJS.ErrnoException): string {
  const reasons: Record<string, string> = {
    EADDRINUSE: 'address already in use',
    EACCES: 'permission denied',
    EADDRNOTAVAIL: 'cannot assign requested address',
  };
  const hostPort = goHostPort(config.bindAddress, config.port);
  const reason = (err.code !== undefined ? reasons[err.code] : undefined) ?? err.message;
  return `failed to create listener: failed to listen on ${hostPort}: listen tcp ${hostPort}: bind: ${reason}`;
}

function goHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
