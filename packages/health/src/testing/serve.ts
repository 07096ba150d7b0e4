import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthHandler } from '../handler.js';

export interface Served {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly close: () => Promise<void>;
}

export interface Reply {
  status: number;
  body: string;
  contentType: string | null;
  nosniff: string | null;
}

/** A path the handler did not claim; tests use it to see that `false` was returned. */
export const NOT_HANDLED = 418;

/** Serves `handler` on a real loopback port, the way a daemon mounts it. */
export async function serve(handler: HealthHandler): Promise<Served> {
  const server = createServer((req, res) => {
    if (!handler(req, res)) {
      res.statusCode = NOT_HANDLED;
      res.end('not mine');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export async function request(base: string, target: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(`${base}${target}`, init);
  return {
    status: res.status,
    body: await res.text(),
    contentType: res.headers.get('content-type'),
    nosniff: res.headers.get('x-content-type-options'),
  };
}
