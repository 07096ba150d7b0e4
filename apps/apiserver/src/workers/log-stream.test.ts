import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineAtomicStream } from './log-stream.js';

function collector() {
  const writes: string[] = [];
  const target = new Writable({
    write(chunk: Buffer, _enc, cb) {
      writes.push(chunk.toString());
      cb();
    },
  });
  return { writes, target };
}

const write = (s: LineAtomicStream, text: string) =>
  new Promise<void>((resolve, reject) => s.write(text, (err) => (err ? reject(err) : resolve())));

describe('LineAtomicStream', () => {
  it('cuts a burst of lines at line ends into writes of at most 4096 bytes', async () => {
    const { writes, target } = collector();
    const text = Array.from({ length: 120 }, (_, i) => `line ${i} ${'x'.repeat(90)}\n`).join('');
    await write(new LineAtomicStream(target), text);
    expect(writes.length).toBeGreaterThan(2);
    for (const w of writes) {
      expect(Buffer.byteLength(w)).toBeLessThanOrEqual(4096);
      expect(w.endsWith('\n')).toBe(true);
    }
    expect(writes.join('')).toBe(text);
  });

  it('writes a line longer than 4096 bytes whole, and small writes as they are', async () => {
    const { writes, target } = collector();
    const s = new LineAtomicStream(target);
    const long = `${'y'.repeat(5000)}\n`;
    await write(s, `a\n${long}b\n`);
    await write(s, 'c\n');
    expect(writes).toEqual(['a\n', long, 'b\n', 'c\n']);
  });
});
