import type { ServerResponse } from 'node:http';
import { toStatus } from '@keel/apimachinery';

/** Answers with the error's Status body (any other error becomes a 500 InternalError). */
export function writeStatus(res: ServerResponse, err: unknown): void {
  const status = toStatus(err);
  const body = JSON.stringify(status) + '\n';
  res.writeHead(status.code ?? 500, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
