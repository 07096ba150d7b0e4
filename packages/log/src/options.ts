import {
  Duration,
  flagTypes as t,
  type ModuleLevel,
  type NamedFlagSets,
  type OptionsGroup,
} from '@keel/flags';

/** The resolved logging settings (k8s component-base LoggingConfiguration, text format only). */
export interface LoggingConfig {
  /** Longest time a line may wait in the buffer before it is written. */
  readonly flushFrequency: Duration;
  /** -v: V(n) lines with n <= verbosity are written. */
  readonly verbosity: number;
  /** --vmodule: per-file levels, first matching pattern wins. */
  readonly vmodule: readonly ModuleLevel[];
  readonly format: 'text';
}

/** The "Logs" flags shared by every Keel daemon (component-base/logs/api/v1 AddFlags). */
export class LoggingOptions implements OptionsGroup<{ logging?: LoggingConfig }> {
  flushFrequency: Duration = Duration.parse('5s');
  verbosity = 0;
  vmodule: readonly ModuleLevel[] = [];
  format = 'text';

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Logs');
    s.var(this, 'flushFrequency', {
      name: 'log-flush-frequency',
      type: t.duration,
      usage: 'Maximum number of seconds between log flushes.',
    });
    s.var(this, 'format', {
      name: 'logging-format',
      type: t.string,
      usage: 'Sets the log format. Permitted formats: "text".',
    });
    s.var(this, 'verbosity', {
      name: 'v',
      shorthand: 'v',
      type: t.level,
      usage: 'number for the log level verbosity',
    });
    s.var(this, 'vmodule', {
      name: 'vmodule',
      type: t.moduleSpec,
      usage:
        'comma-separated list of pattern=N settings for file-filtered logging (only works for text log format)',
    });
  }

  validate(): string[] {
    const errs: string[] = [];
    if (this.flushFrequency.nanoseconds <= 0n) errs.push('--log-flush-frequency must be greater than 0');
    return errs;
  }

  applyTo(config: { logging?: LoggingConfig }): void {
    config.logging = Object.freeze({
      flushFrequency: this.flushFrequency,
      verbosity: this.verbosity,
      vmodule: Object.freeze([...this.vmodule]),
      format: 'text',
    });
  }
}
