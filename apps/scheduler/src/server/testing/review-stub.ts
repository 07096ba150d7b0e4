import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectionFromUrl, RestClient } from '@keel/client';

export interface StubAnswer {
  readonly status: number;
  /** JSON unless it is a string, which is sent as it is. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

/**
 * A plain-HTTP stand-in for the API server's review endpoints, for the unit tests of the review
 * clients: real sockets, answers chosen by the test, every request recorded.
 */
export class ReviewStub {
  readonly received: ReceivedRequest[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private answer: (req: ReceivedRequest) => StubAnswer,
  ) {}

  static async start(answer: (req: ReceivedRequest) => StubAnswer): Promise<ReviewStub> {
    const holder: { stub?: ReviewStub } = {};
    const server = createServer((req, res) => {
      void readJson(req).then((body) => {
        const received = {
          method: req.method ?? '',
          path: req.url ?? '',
          authorization: req.headers.authorization,
          body,
        };
        holder.stub?.received.push(received);
        const a = holder.stub?.answer(received) ?? { status: 500, body: {} };
        const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
        res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    holder.stub = new ReviewStub(server, `http://127.0.0.1:${port}`, answer);
    return holder.stub;
  }

  respond(answer: (req: ReceivedRequest) => StubAnswer): void {
    this.answer = answer;
  }

  client(): RestClient {
    return new RestClient(connectionFromUrl(this.url), { rateLimiter: null });
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
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

/** A review answered with this status, as the API server returns the request with status set. */
export function reviewAnswer(req: ReceivedRequest, status: Record<string, unknown>, code = 201): StubAnswer {
  const body = typeof req.body === 'object' && req.body !== null ? req.body : {};
  return { status: code, body: { ...body, status } };
}
