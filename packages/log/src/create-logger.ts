import winston from 'winston';
import { BufferedTransport } from './buffered-transport.js';
import { BufferedWriter } from './buffered-writer.js';
import { KLOG, klogFormat, type KlogRecord, type Severity } from './klog-format.js';
import { KlogLogger, type LoggerCore } from './klog-logger.js';
import type { RootLogger } from './logger.js';
import type { LoggingConfig } from './options.js';
import { ModuleFilter } from './vmodule.js';

/** Where lines go and which clock stamps them; tests inject both. */
export interface CreateLoggerOptions {
  /** Defaults to process.stderr, where klog writes. */
  readonly stream?: NodeJS.WritableStream;
  /** Defaults to the wall clock. */
  readonly now?: () => Date;
  /** Buffered characters that force a write before the flush interval (default 64 Ki). */
  readonly maxBufferChars?: number;
}

// Verbosity is Keel's own (v/vmodule), so winston only needs the three severities, in klog's order.
const LEVELS = { error: 0, warning: 1, info: 2 } as const;
const LEVEL_OF: Readonly<Record<Severity, keyof typeof LEVELS>> = { I: 'info', W: 'warning', E: 'error' };

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Builds the process's logger from the "Logs" options: winston renders klog lines and a buffered
 * transport writes them. Never throws; call close() before the process exits so nothing is lost.
 */
export function createLogger(config: LoggingConfig, options: CreateLoggerOptions = {}): RootLogger {
  const writer = new BufferedWriter(options.stream ?? process.stderr, {
    flushIntervalMs: config.flushFrequency.milliseconds,
    maxBufferChars: options.maxBufferChars,
  });
  const output = winston.createLogger({
    levels: LEVELS,
    level: 'info',
    format: klogFormat(process.pid),
    transports: [new BufferedTransport(writer)],
    exitOnError: false,
  });
  // A failing transport must not crash the daemon; the health check reports it through flush().
  output.on('error', (err: unknown) => writer.fail(toError(err)));

  const core: LoggerCore = {
    verbosity: config.verbosity,
    modules: new ModuleFilter(config.vmodule),
    now: options.now ?? (() => new Date()),
    emit: (record: KlogRecord) => {
      const level = LEVEL_OF[record.severity];
      output.log({ level, message: record.message, [KLOG]: record });
    },
    fail: (err) => writer.fail(toError(err)),
    flush: () => writer.flush(),
    close: () => writer.close(),
  };
  return new KlogLogger(core, []);
}
