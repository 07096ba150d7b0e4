/** How long lines may wait and how much may pile up before they are written. */
export interface BufferedWriterOptions {
  /** --log-flush-frequency in milliseconds; 0 or less writes every line at once. */
  readonly flushIntervalMs: number;
  /** Buffered characters that force a write before the interval is up (klog's buffers are 256 KiB; 64 Ki is plenty). */
  readonly maxBufferChars?: number;
}

const DEFAULT_MAX_BUFFER_CHARS = 64 * 1024;

/**
 * Buffering in front of a stream: lines collect in memory and go out in one write at the end of
 * the event-loop turn that produced them, when the buffer is full, when an error line arrives, or
 * on flush(). A burst of lines costs one write system call, yet nothing waits for a timer: klog
 * writes its standard-error lines at once, and a daemon that shows its first line 5 s late looks
 * hung. The flush interval remains the upper bound, for a loop so busy the end-of-turn write is late.
 */
export class BufferedWriter {
  private chunks: string[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private closed = false;
  // Writes complete in order, so waiting for the last one waits for all; it resolves to its error, if any.
  private lastWrite: Promise<Error | undefined> = Promise.resolve(undefined);
  private failure: Error | undefined;

  private readonly flushIntervalMs: number;
  private readonly maxBufferChars: number;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    options: BufferedWriterOptions,
  ) {
    this.flushIntervalMs = options.flushIntervalMs;
    this.maxBufferChars = options.maxBufferChars ?? DEFAULT_MAX_BUFFER_CHARS;
  }

  /** Queues text; `urgent` (error lines) writes it and everything before it now. */
  write(text: string, urgent = false): void {
    this.chunks.push(text);
    this.size += text.length;
    if (urgent || this.closed || this.flushIntervalMs <= 0 || this.size >= this.maxBufferChars) {
      this.writeOut();
      return;
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.writeOut();
      }, this.flushIntervalMs);
      // A pending flush must not keep a finished process alive; close() flushes on the way out.
      this.timer.unref();
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        this.writeOut();
      });
      this.immediate.unref();
    }
  }

  /** Writes what is buffered and resolves once the stream has taken every write so far; rejects on a write error. */
  async flush(): Promise<void> {
    this.writeOut();
    const failure = this.failure;
    this.failure = undefined;
    const err = (await this.lastWrite) ?? failure;
    if (err !== undefined) throw err;
  }

  /** Flushes and stops buffering: lines logged during shutdown go straight to the stream. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** Records a failure reported outside write() (winston's own error event) so the next flush() reports it. */
  fail(err: Error): void {
    this.failure ??= err;
  }

  private writeOut(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.immediate !== undefined) {
      clearImmediate(this.immediate);
      this.immediate = undefined;
    }
    if (this.chunks.length === 0) return;
    const data = this.chunks.join('');
    this.chunks = [];
    this.size = 0;
    this.lastWrite = new Promise((resolve) => {
      try {
        this.stream.write(data, (err?: Error | null) => resolve(err ?? undefined));
      } catch (err) {
        resolve(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }
}
