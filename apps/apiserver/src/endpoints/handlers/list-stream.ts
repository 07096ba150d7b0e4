import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ListResult } from '@keel/storage';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';
import { GZIP_LEVEL, mayGzip, writeBody } from '../respond.js';
import { ChunkPool } from './chunk-pool.js';
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

/** Shared by every streamed list: a few idle chunks kept (4 MiB at most). */
export const listChunks = new ChunkPool(CHUNK, 4);

/**
 * Writes a `<Kind>List` as the real server's streaming collection encoder does: the envelope,
 * then the items' JSON (each already encoded as UTF-8 bytes, see GenericStore.listJson), a large
 * list in chunks so it starts arriving early. The chunks are the items' bytes copied into
 * reused buffers (no body-sized string is built, nothing is converted to UTF-8 again per
 * request, no fresh buffer per chunk). The bytes equal the one-shot encoding (same key order,
 * the trailing newline); small lists go out in one write.
 */
export async function writeList<I extends InternalObject>(
  res: ServerResponse,
  view: ResourceView<I>,
  result: ListResult<Buffer>,
): Promise<void> {
  const { items: _items, ...envelope } = listBody(view, { ...result, items: [] });
  // The envelope's own JSON without its closing brace, then the items member.
  const head = Buffer.from(`${JSON.stringify(envelope).slice(0, -1)},"items":[`);
  const items = result.items;
  let length = head.length + CLOSE.length + Math.max(0, items.length - 1);
  for (const item of items) length += item.length;
  if (length < STREAM_THRESHOLD) {
    const parts: Buffer[] = [head];
    items.forEach((item, i) => (i > 0 ? parts.push(COMMA, item) : parts.push(item)));
    parts.push(CLOSE);
    writeBody(res, 200, Buffer.concat(parts, length), 'application/json');
    return;
  }
  if (res.destroyed) return;
  const body = new ChunkedBody(startStream(res, length), () => res.destroyed);
  body.put(head);
  for (let i = 0; i < items.length; i++) {
    const first = i === 0 || body.put(COMMA);
    if (!(body.put(items[i]!) && first)) {
      if (res.destroyed) return;
      await drained(body.out);
    }
  }
  body.put(CLOSE);
  body.end();
}

/**
 * Bytes copied into pooled chunks, each handed to the stream once full: the first at
 * STREAM_THRESHOLD so the body starts early, then every CHUNK. `put` answers false when the
 * stream asks to wait for 'drain' (or is gone).
 */
class ChunkedBody {
  private chunk = listChunks.take();
  private used = 0;
  private flushAt = STREAM_THRESHOLD;

  constructor(
    readonly out: Writable,
    private readonly gone: () => boolean,
  ) {}

  put(bytes: Buffer): boolean {
    let ok = true;
    if (this.used > 0 && this.used + bytes.length > this.chunk.length) ok = this.flush();
    // Larger than a chunk: it goes out as it is (the cache's bytes are never changed).
    if (bytes.length > this.chunk.length) return this.write(bytes) && ok;
    this.chunk.set(bytes, this.used);
    this.used += bytes.length;
    if (this.used >= this.flushAt) ok = this.flush() && ok;
    return ok;
  }

  end(): void {
    if (this.gone()) return;
    const chunk = this.chunk;
    this.out.end(chunk.subarray(0, this.used), () => listChunks.give(chunk));
  }

  private flush(): boolean {
    if (this.gone()) return false;
    const chunk = this.chunk;
    const ok = this.write(chunk.subarray(0, this.used), () => listChunks.give(chunk));
    this.chunk = listChunks.take();
    this.used = 0;
    this.flushAt = CHUNK;
    return ok;
  }

  private write(bytes: Buffer, done?: () => void): boolean {
    if (this.gone()) return false;
    return done ? this.out.write(bytes, done) : this.out.write(bytes);
  }
}
