import type { IncomingMessage } from 'node:http';
import {
  badRequest,
  goJsonSyntaxError,
  jsonDuplicateFields,
  requestEntityTooLarge,
  unsupportedMediaType,
} from '@keel/apimachinery';
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
  if (type === '' || type === 'application/json' || type === '*/*') return parseObjectJson(body, kind);
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml')
    return parseYamlText(body.toString('utf8'), kind);
  throw unsupportedMediaType(OBJECT_TYPES);
}

/** Go's summarizeData: the body's first 30 bytes, as text when it is an object, else as hex. */
function summarizeData(data: Buffer): string {
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, 30);
  const more = data.length > 30 ? ' ...' : '';
  return data[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

/**
 * A JSON object body. Malformed JSON fails as the real server's decoder does: the kind lookup
 * (json serializer Interpret) reports Go's syntax error; for a resource the handler then calls
 * the object unrecognized, for DeleteOptions the error is returned as it is.
 */
export function parseObjectJson(raw: Buffer, kind: string): unknown {
  const syntax = goJsonSyntaxError(raw);
  if (syntax === undefined) return JSON.parse(raw.toString('utf8')) as unknown;
  const err = `couldn't get version/kind; json parse error: ${syntax}`;
  if (kind === 'DeleteOptions') throw badRequest(err);
  throw badRequest(
    `the object provided is unrecognized (must be of type ${kind}): ${err} (${summarizeData(raw)})`,
  );
}

/** Members a JSON body repeats (fieldValidation reports them); none for other media types. */
export function jsonDuplicates(req: IncomingMessage, raw: Buffer): string[] {
  const type = mediaType(req);
  const json = type === '' || type === 'application/json' || type === '*/*';
  return json ? jsonDuplicateFields(raw.toString('utf8')) : [];
}

/** A JSON patch document: malformed JSON is a 400 with Go's syntax error (the patch libraries' text). */
export function parsePatchJson(raw: Buffer): unknown {
  const syntax = goJsonSyntaxError(raw);
  if (syntax !== undefined) throw badRequest(syntax);
  return JSON.parse(raw.toString('utf8')) as unknown;
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
