import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ListResult } from '@keel/storage';
import type { EncodedItems } from '../../registry/encoded-items.js';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';
import { wantsPretty, writeJson, writeObject } from '../respond.js';
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
 * then the items as they are encoded, so a large list starts arriving before it is all encoded
 * and is never held as one string. The bytes equal the one-shot encoding (same key order, the
 * trailing newline); pretty output and small lists take the one-shot path.
 */
export async function writeList<I extends InternalObject>(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  view: ResourceView<I>,
  result: ListResult<I>,
  encoded: EncodedItems<I>,
): Promise<void> {
  if (wantsPretty(req, url)) {
    writeObject(req, res, url, 200, listBody(view, result));
    return;
  }
  const { items: _items, ...envelope } = listBody(view, { ...result, items: [] });
  // The envelope's own JSON without its closing brace, then the items member.
  const head = `${JSON.stringify(envelope).slice(0, -1)},"items":[`;
  let chunk = head;
  let streaming = false;
  for (let i = 0; i < result.items.length; i++) {
    chunk += (i === 0 ? '' : ',') + encoded.listItem(view, result.items[i] as I);
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
