import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { TestCert } from './pki.js';

/** What the webhook answers one request with; a string body is sent as it is (garbage tests). */
export interface WebhookAnswer {
  readonly status?: number;
  readonly body: unknown;
}

export interface WebhookCall {
  readonly path: string;
  readonly body: unknown;
  /** The CommonName of the client certificate the caller presented ('' for none). */
  readonly clientCN: string;
}

/**
 * A TokenReview / SubjectAccessReview webhook on 127.0.0.1 over HTTPS: answers chosen by the
 * test, every call recorded (so tests can count what caching saved), client certificates
 * requested and reported. `connectionConfig` writes the file the API server's
 * --*-webhook-config-file flags read.
 */
export class TestWebhookServer {
  readonly calls: WebhookCall[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private answer: (call: WebhookCall) => WebhookAnswer,
  ) {}

  static async start(
    serving: TestCert,
    answer: (call: WebhookCall) => WebhookAnswer,
    opts: { clientCA?: string; port?: number; host?: string } = {},
  ): Promise<TestWebhookServer> {
    const holder: { hook?: TestWebhookServer } = {};
    const server = createServer(
      {
        cert: serving.certPem,
        key: serving.keyPem,
        requestCert: true,
        rejectUnauthorized: false,
        ...(opts.clientCA ? { ca: opts.clientCA } : {}),
      },
      (req, res) => {
        void readJson(req).then((body) => {
          const peer = (req.socket as TLSSocket).getPeerCertificate();
          const call = {
            path: req.url ?? '',
            body,
            clientCN: typeof peer.subject?.CN === 'string' ? peer.subject.CN : '',
          };
          const hook = holder.hook;
          hook?.calls.push(call);
          const a = hook?.answer(call) ?? { status: 500, body: '' };
          res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
          res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
    holder.hook = new TestWebhookServer(server, (server.address() as AddressInfo).port, answer);
    return holder.hook;
  }

  respond(answer: (call: WebhookCall) => WebhookAnswer): void {
    this.answer = answer;
  }

  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Writes a connection-config (kubeconfig) naming a webhook: `url` is where reviews go (path
 * included), `ca` verifies its certificate, `client` is the certificate the API server presents.
 * Returns `file`.
 */
export function writeWebhookConfig(file: string, url: string, ca: string, client?: TestCert): string {
  const user = client ? { 'client-certificate': client.certFile, 'client-key': client.keyFile } : {};
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'webhook',
    clusters: [
      {
        name: 'remote',
        cluster: { server: url, 'certificate-authority-data': Buffer.from(ca).toString('base64') },
      },
    ],
    users: [{ name: 'apiserver', user }],
    contexts: [{ name: 'webhook', context: { cluster: 'remote', user: 'apiserver' } }],
  };
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** The review a webhook answers with: the request echoed with `status` set, as kube's own do. */
export function reviewWith(call: WebhookCall, status: Record<string, unknown>): WebhookAnswer {
  const req = typeof call.body === 'object' && call.body !== null ? call.body : {};
  return { body: { ...req, status } };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}
