import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeKubeconfig, type TestPKI } from '@keel/testing';

export interface AuditEventJson {
  readonly level: string;
  readonly auditID: string;
  readonly stage: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: { username?: string; groups?: string[] };
  readonly impersonatedUser?: { username?: string };
  readonly sourceIPs?: string[];
  readonly userAgent?: string;
  readonly objectRef?: Record<string, string>;
  readonly responseStatus?: Record<string, unknown>;
  readonly requestObject?: Record<string, unknown>;
  readonly responseObject?: Record<string, unknown>;
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
  readonly annotations?: Record<string, string>;
}

export interface ReceivedBatch {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly bytes: number;
  readonly list: { kind: string; apiVersion: string; items: AuditEventJson[] };
}

/** An HTTPS audit webhook on 127.0.0.1 that keeps every EventList it is sent. */
export class AuditReceiver {
  readonly batches: ReceivedBatch[] = [];
  /** Answers this many requests with a 500 before accepting. */
  failNext = 0;
  attempts = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly ca: string,
  ) {}

  static async start(pki: TestPKI): Promise<AuditReceiver> {
    const { ca, server: cert } = pki.serving();
    const holder: { r?: AuditReceiver } = {};
    const server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = holder.r;
        if (!r) return;
        r.attempts++;
        if (r.failNext > 0) {
          r.failNext--;
          res.writeHead(500).end('try again');
          return;
        }
        const body = Buffer.concat(chunks);
        r.batches.push({
          path: req.url ?? '',
          contentType: req.headers['content-type'],
          bytes: body.length,
          list: JSON.parse(body.toString('utf8')) as ReceivedBatch['list'],
        });
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.r = new AuditReceiver(server, `https://127.0.0.1:${port}/audit`, ca.certPem);
    return holder.r;
  }

  get events(): AuditEventJson[] {
    return this.batches.flatMap((b) => b.list.items);
  }

  eventsFor(auditID: string): AuditEventJson[] {
    return this.events.filter((e) => e.auditID === auditID);
  }

  /** Waits until `pred` holds for the events received. */
  async until(pred: (events: AuditEventJson[]) => boolean, timeoutMs = 10_000): Promise<AuditEventJson[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (Date.now() > deadline)
        throw new Error(
          `audit events not received: ${JSON.stringify(this.events.map((e) => [e.stage, e.requestURI]))}`,
        );
      await new Promise((r) => setTimeout(r, 25));
    }
    return this.events;
  }

  /** A connection-config file for --audit-webhook-config-file. */
  kubeconfig(dir: string): string {
    return writeKubeconfig(join(dir, `audit-webhook-${Date.now()}.json`), this.url, this.ca);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
