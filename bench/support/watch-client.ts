/**
 * One load-generating process of the watch fan-out figure (watch-fanout-1000.ts forks several,
 * so the clients' TLS and parsing do not share one event loop and the figure is the server's).
 * It opens its share of the watches of Events, each its own HTTPS connection as an informer's,
 * and records when each marked Event reaches each watch: `process.hrtime.bigint()`, which is
 * CLOCK_MONOTONIC and so comparable with the parent's clock.
 *
 * Messages from the parent: `open` (returns `ready` once every watch has its 200), `collect`
 * (returns the arrivals so far), `close`. A watch finds a mark by scanning the bytes for
 * `fanout-<n>.` (the Event's note), so JSON and protobuf streams are read alike and the
 * client does no JSON work.
 */
import { setMaxListeners } from 'node:events';
import { Agent, request } from 'undici';

export interface OpenMessage {
  readonly cmd: 'open';
  readonly url: string;
  readonly ca: string;
  readonly token: string;
  readonly path: string;
  readonly resourceVersion: string;
  readonly watches: number;
  /** Every how many watches one asks for protobuf (0: none). */
  readonly protobufEvery: number;
}
export type ParentMessage = OpenMessage | { readonly cmd: 'collect' } | { readonly cmd: 'close' };
export type ChildMessage =
  | { readonly kind: 'ready'; readonly opened: number; readonly failed: number }
  | { readonly kind: 'arrivals'; readonly arrivals: [mark: number, atNs: string][] }
  | { readonly kind: 'error'; readonly message: string };

const MARK = Buffer.from('fanout-');
/** Watches whose request is under way at once while opening (a burst of 1,000 TLS handshakes stalls). */
const OPENING = 25;

const arrivals: [number, string][] = [];
const controller = new AbortController();
// One signal ends every watch of this process.
setMaxListeners(0, controller.signal);
let agent: Agent | undefined;

function send(m: ChildMessage): void {
  process.send?.(m);
}

/** Scans a stream for marks, remembering a tail so a mark split over two chunks is still found. */
function scanner(): (chunk: Buffer) => void {
  let tail = Buffer.alloc(0);
  const seen = new Set<number>();
  return (chunk) => {
    const at = process.hrtime.bigint();
    const buf = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
    let i = buf.indexOf(MARK);
    while (i >= 0) {
      let j = i + MARK.length;
      let n = 0;
      while (j < buf.length && buf[j]! >= 0x30 && buf[j]! <= 0x39) n = n * 10 + buf[j++]! - 0x30;
      // A mark ends with '.', so one cut by the chunk's end is read whole with the next chunk.
      if (j >= buf.length) break;
      if (buf[j] === 0x2e && !seen.has(n)) {
        seen.add(n);
        arrivals.push([n, at.toString()]);
      }
      i = buf.indexOf(MARK, j);
    }
    tail = Buffer.from(buf.subarray(Math.max(0, buf.length - 32)));
  };
}

async function openOne(m: OpenMessage, index: number): Promise<void> {
  const protobuf = m.protobufEvery > 0 && index % m.protobufEvery === 0;
  const r = await request(
    `${m.url}${m.path}?watch=true&timeoutSeconds=1800&resourceVersion=${m.resourceVersion}`,
    {
      headers: {
        authorization: `Bearer ${m.token}`,
        accept: protobuf ? 'application/vnd.kubernetes.protobuf, application/json' : 'application/json',
      },
      dispatcher: agent,
      signal: controller.signal,
    },
  );
  if (r.statusCode !== 200) throw new Error(`watch: HTTP ${r.statusCode}`);
  const scan = scanner();
  r.body.on('data', scan);
  r.body.on('error', () => undefined);
}

async function open(m: OpenMessage): Promise<void> {
  agent = new Agent({ connect: { ca: m.ca }, connections: m.watches + 1, pipelining: 0 });
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < m.watches) {
      const i = next++;
      await openOne(m, i).catch(() => failed++);
    }
  };
  await Promise.all(Array.from({ length: OPENING }, worker));
  send({ kind: 'ready', opened: m.watches - failed, failed });
}

process.on('message', (m: ParentMessage) => {
  if (m.cmd === 'open') open(m).catch((err: unknown) => send({ kind: 'error', message: String(err) }));
  else if (m.cmd === 'collect') send({ kind: 'arrivals', arrivals: arrivals.splice(0) });
  else {
    controller.abort();
    void agent?.destroy().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2_000).unref();
  }
});
