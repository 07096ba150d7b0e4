import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listChunks, writeList } from './list-stream.js';
import type { InternalObject, ResourceView } from '../../registry/resource-view.js';

/**
 * A response that keeps every written buffer as it was handed over (no copy) until it confirms
 * the write, and copies it only then: a chunk reused before its write was confirmed shows as
 * changed bytes. Writes are confirmed when told to, or at once.
 */
class HeldResponse extends Writable {
  private readonly parts: { bytes: Buffer; done?: () => void }[] = [];
  headers: Record<string, unknown> = {};
  statusCode = 0;
  /** Confirm writes at once (a fast socket) instead of holding them. */
  confirmAtOnce = false;

  constructor() {
    super({ highWaterMark: 2 * 1024 * 1024 });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    const part = { bytes: chunk, done };
    this.parts.push(part);
    if (this.confirmAtOnce) setImmediate(() => this.confirm(part));
  }

  writeHead(status: number, headers: Record<string, unknown>): this {
    this.statusCode = status;
    this.headers = headers;
    return this;
  }

  confirmAll(): void {
    for (const part of this.parts) this.confirm(part);
  }

  get writes(): number {
    return this.parts.length;
  }

  body(): Buffer {
    return Buffer.concat(this.parts.map((p) => p.bytes));
  }

  /** Resolves once every write is confirmed and the stream finished. */
  async finished(): Promise<void> {
    while (!this.writableFinished) {
      this.confirmAll();
      await new Promise((r) => setImmediate(r));
    }
  }

  private confirm(part: { bytes: Buffer; done?: () => void }): void {
    const done = part.done;
    if (!done) return;
    part.bytes = Buffer.from(part.bytes);
    part.done = undefined;
    done();
  }
}

const view = {
  listKind: 'ThingList',
  group: 'example.com',
  version: 'v1',
} as unknown as ResourceView<InternalObject>;

/** Items of varied sizes (one over a chunk), each filled with its own byte so a mix-up shows. */
function items(n: number, big = false): Buffer[] {
  return Array.from({ length: n }, (_, i) => {
    const size = big && i === 3 ? 1_500_000 : 700 + ((i * 37) % 900);
    return Buffer.from(`{"n":"${String.fromCharCode(97 + (i % 26)).repeat(size)}"}`);
  });
}

function expected(list: Buffer[]): string {
  return `{"kind":"ThingList","apiVersion":"example.com/v1","metadata":{"resourceVersion":"7"},"items":[${list.join(',')}]}\n`;
}

async function write(res: HeldResponse, list: Buffer[]): Promise<void> {
  await writeList(res as unknown as ServerResponse, view, { items: list, resourceVersion: '7' });
}

describe('writeList', () => {
  it('streams a large list in pooled chunks, none reused before its write was confirmed', async () => {
    const list = items(4_000, true);
    const res = new HeldResponse();
    // Held writes fill the stream past its high-water mark, so the writer waits for drains.
    const done = write(res, list);
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setImmediate(r));
      // What is written so far is a prefix of the body, confirmed or not.
      expect(expected(list).startsWith(res.body().toString())).toBe(true);
      res.confirmAll();
    }
    await done;
    await res.finished();
    const text = res.body().toString();
    expect(text).toBe(expected(list));
    expect(res.headers['Content-Length']).toBe(Buffer.byteLength(text));
    expect(res.writes).toBeGreaterThan(3);
    expect(listChunks.idle).toBeGreaterThan(0);
  });

  it('writes two lists at once from the shared pool, each whole', async () => {
    const [a, b] = [items(3_000), items(2_500, true)];
    const [ra, rb] = [new HeldResponse(), new HeldResponse()];
    ra.confirmAtOnce = rb.confirmAtOnce = true;
    await Promise.all([write(ra, a), write(rb, b)]);
    await Promise.all([ra.finished(), rb.finished()]);
    expect(ra.body().toString()).toBe(expected(a));
    expect(rb.body().toString()).toBe(expected(b));
  });

  it('sends a small list in one write', async () => {
    const list = items(3);
    const res = new HeldResponse();
    res.confirmAtOnce = true;
    await write(res, list);
    await res.finished();
    expect(res.writes).toBe(1);
    expect(res.body().toString()).toBe(expected(list));
  });
});
