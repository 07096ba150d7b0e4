import type { IncomingMessage } from 'node:http';
import {
  badRequest,
  StatusError,
  goJsonSyntaxError,
  jsonDuplicateFields,
  jsonHasDuplicateFields,
  jsonNestsTooDeep,
  requestEntityTooLarge,
  unsupportedMediaType,
} from '@keel/apimachinery';
import { parseDocument, visit } from 'yaml';
import { auditRequestObject } from '../../filters/audit.js';
import { decodeProtobufObject, PROTOBUF } from './protobuf-body.js';

/** How much of an oversized body is read and discarded so the 413 reaches the client. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/**
 * Reads the whole body, refusing more than `limit` bytes with a 413 (a declared length over it
 * is known to be refused before any byte arrives). An oversized body is read to its end and discarded: leaving it unread (or
 * destroying the request, which is what leaving a `for await` does) closes a socket with unread
 * data, and TCP's reset can swallow the 413. Past DRAIN_LIMIT the client is not worth waiting for.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  // A declared length over the limit is refused without reading it, but still drained (when
  // the drain is worth it), or the client may still be writing when the socket closes.
  if (declared > DRAIN_LIMIT) return Promise.reject(requestEntityTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = declared > limit;
    const done = (err?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (err !== undefined) reject(err);
      else if (tooLarge) reject(requestEntityTooLarge(limit));
      else {
        resolve(Buffer.concat(chunks));
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (tooLarge) {
        if (size > DRAIN_LIMIT) done(requestEntityTooLarge(limit));
        return;
      }
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    const onClose = () => {
      if (!req.complete) done(new Error('the client closed the connection before sending the whole body'));
    };
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

const OBJECT_TYPES = ['application/json', 'application/yaml'];

/**
 * Decodes a JSON, YAML or protobuf object body (create, update, subresources, delete options)
 * into the JSON wire form, which then takes the one decode path every body takes.
 */
export function decodeObjectBody(req: IncomingMessage, body: Buffer, kind: string): Promise<unknown> {
  // JSON and YAML decode synchronously: only protobuf (whose codec may still be loading) waits,
  // so the others cost no async frames on every write. A failure is a rejection either way.
  let decoded: unknown;
  try {
    decoded = decodeByMediaType(req, body, kind);
  } catch (err) {
    // The decoders throw StatusErrors (and Errors from the parsers), so this wraps nothing.
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
  if (decoded instanceof Promise)
    return decoded.then((obj: unknown) => {
      auditRequestObject(req, obj);
      return obj;
    });
  auditRequestObject(req, decoded);
  return Promise.resolve(decoded);
}

/** The body in JSON wire form; a promise only for protobuf. */
function decodeByMediaType(req: IncomingMessage, body: Buffer, kind: string): unknown {
  const type = mediaType(req);
  if (type === '' || type === 'application/json' || type === '*/*') return parseObjectJson(body, kind);
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml')
    return parseYamlText(body.toString('utf8'), kind);
  if (type === PROTOBUF) return decodeProtobufObject(body, kind);
  throw unsupportedMediaType([...OBJECT_TYPES, PROTOBUF]);
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
  // Both parsers accept the same documents; Go's scanner runs only to word a failure.
  let syntax: string | undefined;
  try {
    // Go's decoder refuses nesting past its limit; later code walks the value recursively.
    if (jsonNestsTooDeep(raw)) throw new SyntaxError('exceeded max depth');
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (parseErr) {
    syntax = goJsonSyntaxError(raw) ?? (parseErr as Error).message;
  }
  const err = `couldn't get version/kind; json parse error: ${syntax}`;
  if (kind === 'DeleteOptions') throw badRequest(err);
  throw badRequest(
    `the object provided is unrecognized (must be of type ${kind}): ${err} (${summarizeData(raw)})`,
  );
}

/**
 * Members a JSON body repeats (fieldValidation reports them); none for other media types.
 * `parsed`, when given, is the body's JSON.parse as it came out (nothing has changed it yet): the
 * common body, which repeats nothing, is then told apart by counting alone.
 */
export function jsonDuplicates(req: IncomingMessage, raw: Buffer, parsed?: unknown): string[] {
  const type = mediaType(req);
  const json = type === '' || type === 'application/json' || type === '*/*';
  if (!json) return [];
  if (parsed !== undefined && !jsonHasDuplicateFields(raw, parsed)) return [];
  return jsonDuplicateFields(raw.toString('utf8'));
}

/** A JSON patch document: malformed JSON is a 400 with Go's syntax error (the patch libraries' text). */
export function parsePatchJson(raw: Buffer): unknown {
  try {
    if (jsonNestsTooDeep(raw)) throw new SyntaxError('exceeded max depth');
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (parseErr) {
    throw badRequest(goJsonSyntaxError(raw) ?? (parseErr as Error).message);
  }
}

/**
 * Go's YAML decoder refuses an anchor whose value refers to itself (`- &a [*a]`); the yaml
 * library would build a circular object, which no encoder can write back.
 */
function selfReferencingAnchor(doc: ReturnType<typeof parseDocument>): string | undefined {
  let found: string | undefined;
  visit(doc, {
    Alias(_key, alias, path) {
      const target = alias.resolve(doc);
      if (target && (path as readonly unknown[]).includes(target)) {
        found = alias.source;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

export function parseYamlText(text: string, kind: string): unknown {
  const cannot = (why: string) =>
    badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${why}`);
  try {
    const doc = parseDocument(text, { uniqueKeys: true });
    const first = doc.errors[0];
    if (first) throw first;
    const anchor = selfReferencingAnchor(doc);
    if (anchor !== undefined) throw cannot(`yaml: anchor '${anchor}' value contains itself`);
    return doc.toJS() as unknown;
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw cannot((err as Error).message.split('\n')[0] ?? '');
  }
}
