import type { IncomingMessage } from 'node:http';
import { badRequest, requestEntityTooLarge, unsupportedMediaType } from '@keel/apimachinery';
import { parse as parseYaml } from 'yaml';

/** Reads the whole body, refusing more than `limit` bytes with a 413 (before reading, when the length says so). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw requestEntityTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw requestEntityTooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

const OBJECT_TYPES = ['application/json', 'application/yaml'];

/** Decodes a JSON or YAML object body (create, update, delete options). */
export function decodeObjectBody(req: IncomingMessage, body: Buffer, kind: string): unknown {
  const type = mediaType(req);
  const text = body.toString('utf8');
  if (type === '' || type === 'application/json' || type === '*/*') return parseJson(text, kind);
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml')
    return parseYamlText(text, kind);
  throw unsupportedMediaType(OBJECT_TYPES);
}

export function parseJson(text: string, kind: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${(err as Error).message}`);
  }
}

export function parseYamlText(text: string, kind: string): unknown {
  try {
    return parseYaml(text, { uniqueKeys: true }) as unknown;
  } catch (err) {
    throw badRequest(
      `${kind} in version "v1" cannot be handled as a ${kind}: ${(err as Error).message.split('\n')[0] ?? ''}`,
    );
  }
}
