import { Writable } from 'node:stream';

/** Linux's PIPE_BUF: a write to a pipe of at most this many bytes is never interleaved with another. */
const ATOMIC_BYTES = 4096;

/**
 * Standard error as a worker writes it. Every worker and the primary share one stderr; a logger
 * writes a burst of lines in one go, and two processes' writes above PIPE_BUF to one pipe may
 * interleave mid-line. So each write is cut at line ends into pieces the kernel writes whole
 * (a single longer line still goes out alone).
 */
export class LineAtomicStream extends Writable {
  constructor(private readonly target: NodeJS.WritableStream = process.stderr) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    let start = 0;
    let last: Buffer | undefined;
    while (start < chunk.length) {
      let end = chunk.length;
      if (end - start > ATOMIC_BYTES) {
        const nl = chunk.lastIndexOf(0x0a, start + ATOMIC_BYTES - 1);
        end = nl >= start ? nl + 1 : chunk.indexOf(0x0a, start) + 1 || chunk.length;
      }
      if (last) this.target.write(last);
      last = chunk.subarray(start, end);
      start = end;
    }
    if (!last) return callback();
    this.target.write(last, (err) => callback(err ?? null));
  }
}
