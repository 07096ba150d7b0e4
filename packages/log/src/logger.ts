import type { KeyValues } from './kv-format.js';

/** Logging at one verbosity level, from Logger.v(n). When disabled, info() does nothing at all. */
export interface VerboseLogger {
  /** Whether lines at this level are written; test it before computing expensive values. */
  readonly enabled: boolean;
  info(msg: string, kv?: KeyValues): void;
}

/**
 * A klog-style structured logger. Messages are short constant sentences; variable data goes in `kv`.
 * No method throws, whatever the values are.
 */
export interface Logger {
  info(msg: string, kv?: KeyValues): void;
  warning(msg: string, kv?: KeyValues): void;
  /** `kv.err` (an Error) is printed first, as its message only: user errors never show a stack trace. */
  error(msg: string, kv?: KeyValues): void;
  /** klog.V(level): enabled when level <= --v, or <= the --vmodule level of the calling file. */
  v(level: number): VerboseLogger;
  /** A logger that adds these key/values to every line (klog WithValues); call values win on a clash. */
  with(kv: KeyValues): Logger;
  /** Writes buffered lines; resolves once the stream has accepted them. */
  flush(): Promise<void>;
}

/** The process's logger from createLogger(): close() on shutdown flushes and stops buffering. */
export interface RootLogger extends Logger {
  close(): Promise<void>;
}

/** What v(n) returns when level n is off: shared, so a disabled call allocates nothing. */
export const disabledVerbose: VerboseLogger = Object.freeze({ enabled: false, info: () => {} });

/** A logger that drops everything, for tests and for code that has no logger to hand. */
export const discardLogger: Logger = Object.freeze({
  info: () => {},
  warning: () => {},
  error: () => {},
  v: () => disabledVerbose,
  with: () => discardLogger,
  flush: () => Promise.resolve(),
});
