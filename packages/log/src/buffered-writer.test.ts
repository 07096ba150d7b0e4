import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BufferedWriter } from './buffered-writer.js';
import { CaptureStream } from './testing/capture.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A stream that holds every write until release() is called, like a pipe nobody reads. */
class StalledStream extends Writable {
  private pending: (() => void)[] = [];
  override _write(_chunk: Buffer, _enc: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.pending.push(() => callback());
  }
  release(): void {
    this.pending.splice(0).forEach((cb) => cb());
  }
}

describe('BufferedWriter', () => {
  it('writes the lines of one event-loop turn together at the end of that turn, not after the interval', async () => {
    const stream = new CaptureStream();
    const w = new BufferedWriter(stream, { flushIntervalMs: 60_000 });
    w.write('a\n');
    w.write('b\n');
    expect(stream.text).toBe('');
    await new Promise((r) => setImmediate(r));
    expect(stream.text).toBe('a\nb\n');
    expect(stream.writes).toBe(1);
    w.write('c\n');
    await new Promise((r) => setImmediate(r));
    expect(stream.text).toBe('a\nb\nc\n');
    expect(stream.writes).toBe(2);
  });

  it('does not tick while idle', async () => {
    vi.useFakeTimers();
    const stream = new CaptureStream();
    new BufferedWriter(stream, { flushIntervalMs: 100 });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(stream.writes).toBe(0);
  });

  it.each<[string, { urgent?: boolean; flushIntervalMs?: number; maxBufferChars?: number }]>([
    ['urgent line', { urgent: true }],
    ['zero interval', { flushIntervalMs: 0 }],
    ['full buffer', { maxBufferChars: 2 }],
  ])('writes immediately for a %s', (_name, o) => {
    const stream = new CaptureStream();
    const w = new BufferedWriter(stream, {
      flushIntervalMs: o.flushIntervalMs ?? 5000,
      maxBufferChars: o.maxBufferChars,
    });
    w.write('x\n', o.urgent ?? false);
    expect(stream.text).toBe('x\n');
  });

  it('flush() resolves only once the stream has taken the data', async () => {
    const stream = new StalledStream();
    const w = new BufferedWriter(stream, { flushIntervalMs: 5000 });
    w.write('x\n');
    let done = false;
    const flushed = w.flush().then(() => (done = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    stream.release();
    await flushed;
    expect(done).toBe(true);
  });

  it('flush() rejects when the stream fails, and does not throw from write()', async () => {
    const stream = new Writable({
      write(_c, _e, cb) {
        cb(new Error('EPIPE'));
      },
    });
    stream.on('error', () => {});
    const w = new BufferedWriter(stream, { flushIntervalMs: 5000 });
    expect(() => w.write('x\n', true)).not.toThrow();
    await expect(w.flush()).rejects.toThrow('EPIPE');
  });

  it('reports a recorded failure once', async () => {
    const w = new BufferedWriter(new CaptureStream(), { flushIntervalMs: 5000 });
    w.fail(new Error('transport broke'));
    await expect(w.flush()).rejects.toThrow('transport broke');
    await expect(w.flush()).resolves.toBeUndefined();
  });
});
