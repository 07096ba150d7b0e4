import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { unlessEmpty } from './rules.js';

export interface TracingConfig {
  /** Tracing configuration (exporter endpoint, sampling rate); undefined means no tracing. */
  readonly configFile: string | undefined;
}

export class TracingOptions implements OptionsGroup<{ tracing?: TracingConfig }> {
  configFile = '';

  addFlags(fss: NamedFlagSets): void {
    fss.section('Traces').var(this, 'configFile', {
      name: 'tracing-config-file',
      type: t.string,
      usage: 'File with apiserver tracing configuration.',
    });
  }

  validate(): string[] {
    return [];
  }

  applyTo(config: { tracing?: TracingConfig }): void {
    config.tracing = { configFile: unlessEmpty(this.configFile) };
  }
}
