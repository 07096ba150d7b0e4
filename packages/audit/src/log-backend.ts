/** The log backend: one line per event, JSON or legacy text, to a rotated file or standard out. */
import { encodeEvent, legacyLine } from './encode.js';
import { ensureLogFile, RotatingFile, type RotationOptions } from './rotating-file.js';
import type { Backend } from './sink.js';
import type { AuditEvent, AuditVersion } from './types.js';

export type LogFormat = 'json' | 'legacy';

export interface LogBackendOptions {
  /** `-` is standard out. */
  readonly path: string;
  readonly format: LogFormat;
  readonly version: AuditVersion;
  readonly rotation: RotationOptions;
}

interface LineWriter {
  write(lines: readonly Buffer[]): Promise<void>;
  close(): Promise<void>;
}

const stdoutWriter: LineWriter = {
  write: (lines) =>
    new Promise((resolve, reject) =>
      process.stdout.write(Buffer.concat(lines), (err) => (err ? reject(err) : resolve())),
    ),
  close: () => Promise.resolve(),
};

export class LogBackend implements Backend {
  private readonly out: LineWriter;
  // Writes go out one at a time so lines never interleave and sizes stay exact for rotation.
  private tail: Promise<unknown> = Promise.resolve();

  /** Creates the file now: a path that cannot be written fails start-up. */
  constructor(private readonly opts: LogBackendOptions) {
    if (opts.path === '-') {
      this.out = stdoutWriter;
    } else {
      ensureLogFile(opts.path);
      this.out = new RotatingFile(opts.path, opts.rotation);
    }
  }

  line(ev: AuditEvent): string {
    return `${this.opts.format === 'legacy' ? legacyLine(ev) : encodeEvent(ev, this.opts.version)}\n`;
  }

  write(events: readonly AuditEvent[]): Promise<void> {
    const lines = events.map((ev) => Buffer.from(this.line(ev), 'utf8'));
    const done = this.tail.then(() => this.out.write(lines));
    this.tail = done.catch(() => undefined);
    return done;
  }

  async close(): Promise<void> {
    await this.tail;
    await this.out.close();
  }
}
