import { discardLogger, type Logger } from '@keel/log';

export interface LogLine {
  readonly level: 'info' | 'warning' | 'error';
  readonly msg: string;
  readonly kv: Record<string, unknown>;
}

/** A Logger that keeps info/warning/error lines (verbose lines are dropped). */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const add = (level: LogLine['level']) => (msg: string, kv?: Record<string, unknown>) => {
    lines.push({ level, msg, kv: kv ?? {} });
  };
  const logger: Logger & { lines: LogLine[] } = {
    lines,
    info: add('info'),
    warning: add('warning'),
    error: add('error'),
    v: (level) => discardLogger.v(level),
    with: () => logger,
    flush: () => Promise.resolve(),
  };
  return logger;
}
