import { callerOf, type EntryPoint } from './caller.js';
import type { KlogRecord, Severity } from './klog-format.js';
import { entriesOf, mergeEntries, type Entry, type KeyValues } from './kv-format.js';
import { disabledVerbose, type Logger, type RootLogger, type VerboseLogger } from './logger.js';
import type { ModuleFilter } from './vmodule.js';

/** What all loggers of one createLogger() share: the level settings and the way out. */
export interface LoggerCore {
  readonly verbosity: number;
  readonly modules: ModuleFilter;
  now(): Date;
  emit(record: KlogRecord): void;
  /** Reports a failure of the logger itself, which must never reach the caller. */
  fail(err: unknown): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** klog ErrorS puts the error right after the message, before the other pairs. */
function errFirst(entries: readonly Entry[]): readonly Entry[] {
  const i = entries.findIndex(([k]) => k === 'err');
  return i <= 0 ? entries : [entries[i] as Entry, ...entries.slice(0, i), ...entries.slice(i + 1)];
}

/**
 * The Logger implementation. Methods are per-instance arrow functions so that callers may pass them
 * around unbound, and so that each one can name itself as the frame where the caller's stack begins.
 */
export class KlogLogger implements RootLogger {
  private verboseLogger: VerboseLogger | undefined;

  constructor(
    private readonly core: LoggerCore,
    private readonly values: readonly Entry[],
  ) {}

  readonly info = (msg: string, kv?: KeyValues): void => this.log('I', msg, kv, this.info);
  readonly warning = (msg: string, kv?: KeyValues): void => this.log('W', msg, kv, this.warning);
  readonly error = (msg: string, kv?: KeyValues): void => this.log('E', msg, kv, this.error);

  readonly v = (level: number): VerboseLogger => {
    if (level <= this.core.verbosity) return this.verbose();
    // Off globally; only --vmodule can turn it on, and only then is the caller's file worth looking up.
    if (this.core.modules.empty) return disabledVerbose;
    const moduleLevel = this.core.modules.levelFor(callerOf(this.v).file);
    return moduleLevel !== undefined && level <= moduleLevel ? this.verbose() : disabledVerbose;
  };

  readonly with = (kv: KeyValues): Logger =>
    new KlogLogger(this.core, mergeEntries(this.values, entriesOf(kv)));

  readonly flush = (): Promise<void> => this.core.flush();
  readonly close = (): Promise<void> => this.core.close();

  private verbose(): VerboseLogger {
    if (this.verboseLogger === undefined) {
      const info = (msg: string, kv?: KeyValues): void => this.log('I', msg, kv, info);
      this.verboseLogger = { enabled: true, info };
    }
    return this.verboseLogger;
  }

  private log(severity: Severity, msg: unknown, kv: KeyValues | undefined, entry: EntryPoint): void {
    try {
      const { file, line } = callerOf(entry);
      const merged = mergeEntries(this.values, entriesOf(kv));
      this.core.emit({
        severity,
        time: this.core.now(),
        file,
        line,
        message: typeof msg === 'string' ? msg : String(msg),
        entries: severity === 'E' ? errFirst(merged) : merged,
      });
    } catch (err) {
      this.core.fail(err);
    }
  }
}
