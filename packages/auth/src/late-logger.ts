import type { KeyValues, Logger, VerboseLogger } from '@keel/log';

/** Lines kept while no logger is attached; past this the oldest go (an issuer retrying for hours). */
const MAX_HELD_LINES = 100;

type Line = readonly ['info' | 'warning' | 'error', string, KeyValues | undefined];

/**
 * A Logger for authenticators and authorizers built before the daemon has its logger (they are
 * built while the configuration is completed, and the OIDC authenticator starts discovery right
 * away): lines are held until `attach`, then written, and from then on forwarded. Verbose lines
 * are dropped until then.
 */
export class LateLogger implements Logger {
  private target: Logger | undefined;
  private held: Line[] = [];

  attach(logger: Logger): void {
    if (this.target !== undefined) return;
    this.target = logger;
    for (const [level, msg, kv] of this.held) logger[level](msg, kv);
    this.held = [];
  }

  private write(level: Line[0], msg: string, kv: KeyValues | undefined): void {
    if (this.target !== undefined) {
      this.target[level](msg, kv);
      return;
    }
    this.held.push([level, msg, kv]);
    if (this.held.length > MAX_HELD_LINES) this.held.shift();
  }

  info(msg: string, kv?: KeyValues): void {
    this.write('info', msg, kv);
  }

  warning(msg: string, kv?: KeyValues): void {
    this.write('warning', msg, kv);
  }

  error(msg: string, kv?: KeyValues): void {
    this.write('error', msg, kv);
  }

  v(level: number): VerboseLogger {
    return this.target?.v(level) ?? { enabled: false, info: () => undefined };
  }

  with(kv: KeyValues): Logger {
    return this.target?.with(kv) ?? this;
  }

  flush(): Promise<void> {
    return this.target?.flush() ?? Promise.resolve();
  }
}
