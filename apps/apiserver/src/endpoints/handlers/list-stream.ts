import type { ServerResponse } from 'node:http';
import type { ListResult } from '@keel/storage';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';
import { writeJson } from '../respond.js';
import { listBody } from './list-body.js';

/** Below this a list goes out in one write with a Content-Length, as before. */
const STREAM_THRESHOLD = 256 * 1024;
/** Chunks handed to TLS: big enough to amortise a write, small enough to start sending early. */
const CHUNK = 1024 * 1024;

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
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
  let streaming = false;
  for (let i = 0; i < result.items.length; i++) {
    chunk += (i === 0 ? '' : ',') + (result.items[i]?.json ?? '');
    if (chunk.length >= (streaming ? CHUNK : STREAM_THRESHOLD)) {
      if (res.destroyed) return;
      if (!streaming) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        streaming = true;
      }
      const flushed = res.write(chunk);
      chunk = '';
      if (!flushed) await drained(res);
    }
  }
  chunk += ']}\n';
  if (!streaming) writeJson(res, 200, chunk);
  else if (!res.destroyed) res.end(chunk);
}
