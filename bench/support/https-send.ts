import { type Agent, request as httpsRequest } from 'node:https';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';

export interface Sent {
  readonly status: number;
  readonly bytes: number;
}

/** One request as the admin, counting the response's bytes without keeping them. */
export function send(
  server: TestApiServer,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers };
    if (body) all['content-length'] = String(body.length);
    const req = httpsRequest(server.url + path, { method, agent, headers: all }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs task(0..n-1) with `concurrency` of them in flight. */
export async function parallel(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
