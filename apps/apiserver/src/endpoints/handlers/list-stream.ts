import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ListResult } from '@keel/storage';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';
import { GZIP_LEVEL, mayGzip, writeBody } from '../respond.js';
import { listBody } from './list-body.js';

/** Below this a list goes out in one write with a Content-Length, as before. */
const STREAM_THRESHOLD = 256 * 1024;
/** Chunks handed to TLS: big enough to amortise a write, small enough to start sending early. */
const CHUNK = 1024 * 1024;

function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.once('drain', done);
    out.once('close', done);
  });
}

/**
 * Starts a streamed 200, through gzip when the client takes it (it is over GZIP_THRESHOLD by now).
 * Unzipped, the body's length is known (every item is in memory), and a Content-Length instead of
 * chunked framing lets each chunk reach TLS as one buffer: a chunk with its framing is three,
 * which the TLS socket copies into one before encrypting.
 */
function startStream(res: ServerResponse, length: number): Writable {
  if (!mayGzip(res)) {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': length });
    return res;
  }
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Encoding': 'gzip',
    Vary: 'Accept-Encoding',
  });
  const zip = createGzip({ level: GZIP_LEVEL });
  zip.pipe(res);
  // A client that goes away stops the compressor too.
  res.once('close', () => zip.destroy());
  return zip;
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}\n');

/**
 * Writes a `<Kind>List` as the real server's streaming collection encoder does: the envelope,
 * then the items' JSON (each already encoded as UTF-8 bytes, see GenericStore.listJson), a large
 * list in chunks so it starts arriving early. The chunks are the items' bytes copied together
 * (no body-sized string is built, nothing is converted to UTF-8 again per request). The bytes
 * equal the one-shot encoding (same key order, the trailing newline); small lists go out in one
 * write.
 */
export async function writeList<I extends InternalObject>(
  res: ServerResponse,
  view: ResourceView<I>,
  result: ListResult<Buffer>,
): Promise<void> {
  const { items: _items, ...envelope } = listBody(view, { ...result, items: [] });
  // The envelope's own JSON without its closing brace, then the items member.
  const head = Buffer.from(`${JSON.stringify(envelope).slice(0, -1)},"items":[`);
  let parts: Buffer[] = [head];
  let bytes = head.length;
  let out: Writable | undefined;
  const items = result.items;
  let length = head.length + CLOSE.length + Math.max(0, items.length - 1);
  for (const item of items) length += item.length;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) {
      parts.push(COMMA);
      bytes++;
    }
    parts.push(item);
    bytes += item.length;
    if (bytes >= (out ? CHUNK : STREAM_THRESHOLD)) {
      if (res.destroyed) return;
      out ??= startStream(res, length);
      const flushed = out.write(Buffer.concat(parts, bytes));
      parts = [];
      bytes = 0;
      if (!flushed) await drained(out);
    }
  }
  parts.push(CLOSE);
  bytes += CLOSE.length;
  const last = Buffer.concat(parts, bytes);
  if (!out) writeBody(res, 200, last, 'application/json');
  else if (!res.destroyed) out.end(last);
}
