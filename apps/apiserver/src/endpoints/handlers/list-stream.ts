import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ListResult } from '@keel/storage';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';
import { GZIP_LEVEL, mayGzip, writeJson } from '../respond.js';
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

/** Starts a streamed 200, through gzip when the client takes it (it is over GZIP_THRESHOLD by now). */
function startStream(res: ServerResponse): Writable {
  if (!mayGzip(res)) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
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

/**
 * Writes a `<Kind>List` as the real server's streaming collection encoder does: the envelope,
 * then the items' JSON (each already encoded, see GenericStore.listJson), a large list in chunks
 * so it starts arriving early and no body-sized string is built (the items' own strings are, and
 * mostly come from the encoded cache). The bytes equal the one-shot
 * encoding (same key order, the trailing newline); small lists go out in one write.
 */
export async function writeList<I extends InternalObject>(
  res: ServerResponse,
  view: ResourceView<I>,
  result: ListResult<{ readonly json: string }>,
): Promise<void> {
  const { items: _items, ...envelope } = listBody(view, { ...result, items: [] });
  // The envelope's own JSON without its closing brace, then the items member.
  let chunk = `${JSON.stringify(envelope).slice(0, -1)},"items":[`;
  let out: Writable | undefined;
  for (let i = 0; i < result.items.length; i++) {
    chunk += (i === 0 ? '' : ',') + (result.items[i]?.json ?? '');
    if (chunk.length >= (out ? CHUNK : STREAM_THRESHOLD)) {
      if (res.destroyed) return;
      out ??= startStream(res);
      const flushed = out.write(chunk);
      chunk = '';
      if (!flushed) await drained(out);
    }
  }
  chunk += ']}\n';
  if (!out) writeJson(res, 200, chunk);
  else if (!res.destroyed) out.end(chunk);
}
