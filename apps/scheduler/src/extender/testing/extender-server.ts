/**
 * A real scheduler extender for tests: an HTTP(S) server on 127.0.0.1 that answers each verb with
 * a handler of the test's choosing and records what it was sent.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface ExtenderCall {
  readonly verb: string;
  readonly body: Record<string, unknown>;
  /** The client certificate's CN over mutual TLS; '' otherwise. */
  readonly clientCN: string;
}

/**
 * A verb's handler: the JSON to answer with (or a promise of it), or `{ status, body }` for a
 * non-200 reply.
 */
export type VerbHandler = (body: Record<string, unknown>) => unknown;

export interface ExtenderServerOptions {
  /** PEM material for HTTPS; plain HTTP without it. */
  readonly tls?: { readonly cert: string; readonly key: string; readonly clientCA?: string };
}

export class ExtenderServer {
  readonly calls: ExtenderCall[] = [];
  private readonly handlers = new Map<string, VerbHandler>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(opts: ExtenderServerOptions = {}): Promise<ExtenderServer> {
    const ref: { self?: ExtenderServer } = {};
    const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
      void ref.self?.handle(req, res);
    };
    const server = opts.tls
      ? https.createServer(
          {
            cert: opts.tls.cert,
            key: opts.tls.key,
            ...(opts.tls.clientCA
              ? { ca: opts.tls.clientCA, requestCert: true, rejectUnauthorized: true }
              : {}),
          },
          listener,
        )
      : http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    ref.self = new ExtenderServer(server, `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`);
    return ref.self;
  }

  on(verb: string, handler: VerbHandler): this {
    this.handlers.set(verb, handler);
    return this;
  }

  callsTo(verb: string): ExtenderCall[] {
    return this.calls.filter((c) => c.verb === verb);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const verb = (req.url ?? '').replace(/^\/+/, '');
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as Record<string, unknown>;
    const peer = (req.socket as Partial<TLSSocket>).getPeerCertificate?.();
    this.calls.push({ verb, body, clientCN: String(peer?.subject?.CN ?? '') });
    const handler = this.handlers.get(verb);
    if (!handler) {
      res.writeHead(404).end('no such verb');
      return;
    }
    const out: unknown = await handler(body);
    if (typeof out === 'object' && out !== null && 'status' in out && typeof out.status === 'number') {
      res.writeHead(out.status).end((out as { body?: string }).body ?? '');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The node names an extender was sent, from `NodeNames` or from the `Nodes` list. */
export function sentNodeNames(body: Record<string, unknown>): string[] {
  if (Array.isArray(body['NodeNames'])) return body['NodeNames'] as string[];
  const items = (body['Nodes'] as { items?: { metadata: { name: string } }[] } | null)?.items ?? [];
  return items.map((n) => n.metadata.name);
}
