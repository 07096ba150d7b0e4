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
  /** Writes the lines before it returns or throws. */
  write(lines: readonly string[]): void;
  close(): Promise<void>;
}

// Node writes standard output synchronously when it is a file or a pipe.
const stdoutWriter: LineWriter = {
  write: (lines) => void process.stdout.write(lines.join('')),
  close: () => Promise.resolve(),
};

/** Lines are written before write() settles, in the order the batches came. */
export class LogBackend implements Backend {
  private readonly out: LineWriter;

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
    try {
      this.out.write(events.map((ev) => this.line(ev)));
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  close(): Promise<void> {
    return this.out.close();
  }
}
