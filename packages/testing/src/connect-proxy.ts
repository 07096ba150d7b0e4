import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';

export interface ConnectProxyOptions {
  /** Listen on this Unix socket path instead of 127.0.0.1. */
  readonly udsPath?: string;
  /** Serve TLS and require a client certificate signed by `clientCA`. */
  readonly tls?: { readonly cert: string; readonly key: string; readonly clientCA: string };
  /**
   * Where a tunnel's target really is, as seen from the network the proxy reaches (a konnectivity
   * agent's view of a cluster): lets a test name a pod address that only the proxy resolves,
   * which the API server itself never dials.
   */
  readonly route?: (host: string, port: number) => { readonly host: string; readonly port: number };
}

/** One CONNECT the proxy served. */
export interface Tunnel {
  readonly target: string;
  /** The client certificate's CommonName, for a TLS proxy. */
  readonly clientCN?: string;
}

/**
 * A real HTTP CONNECT forward proxy on loopback (what the konnectivity server's http-connect mode
 * or squid offers), recording every tunnel it opened, so a test can see that traffic went
 * through it. `refuse` makes it answer 403 instead.
 */
export class TestConnectProxy {
  readonly tunnels: Tunnel[] = [];
  refuse = false;
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:port`, `https://127.0.0.1:port` or the socket path. */
    readonly address: string,
    private readonly route?: ConnectProxyOptions['route'],
  ) {}

  static async start(opts: ConnectProxyOptions = {}): Promise<TestConnectProxy> {
    const server = opts.tls
      ? createHttpsServer({
          cert: opts.tls.cert,
          key: opts.tls.key,
          ca: opts.tls.clientCA,
          requestCert: true,
          rejectUnauthorized: true,
        })
      : createHttpServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if (opts.udsPath) server.listen(opts.udsPath, resolve);
      else server.listen(0, '127.0.0.1', resolve);
    });
    const port = opts.udsPath ? 0 : (server.address() as AddressInfo).port;
    const address = opts.udsPath ?? `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    const proxy = new TestConnectProxy(server, address, opts.route);
    server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) =>
      proxy.tunnel(req, client, head),
    );
    server.on('request', (_req, res) => {
      res.statusCode = 405;
      res.end();
    });
    return proxy;
  }

  private tunnel(req: IncomingMessage, client: Duplex, head: Buffer): void {
    const target = req.url ?? '';
    const peer = (req.socket as TLSSocket).getPeerCertificate?.();
    const cn = peer && typeof peer.subject?.CN === 'string' ? peer.subject.CN : undefined;
    this.tunnels.push({ target, ...(cn ? { clientCN: cn } : {}) });
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.refuse) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const to = this.route ? this.route(m[1]!, Number(m[2])) : { host: m[1]!, port: Number(m[2]) };
    const upstream: Socket = connect(to);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  }

  /** Tunnels opened to `host:port`. */
  tunnelsTo(target: string): number {
    return this.tunnels.filter((t) => t.target === target).length;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
