import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { unlessEmpty } from './rules.js';

export interface EgressSelectorConfig {
  /** How to reach clusters, nodes and the control plane (e.g. through a proxy); undefined dials directly. */
  readonly configFile: string | undefined;
}

export class EgressSelectorOptions implements OptionsGroup<{ egressSelector?: EgressSelectorConfig }> {
  configFile = '';

  addFlags(fss: NamedFlagSets): void {
    fss.section('Egress selector').var(this, 'configFile', {
      name: 'egress-selector-config-file',
      type: t.string,
      usage: 'File with apiserver egress selector configuration.',
    });
  }

  validate(): string[] {
    return [];
  }

  applyTo(config: { egressSelector?: EgressSelectorConfig }): void {
    config.egressSelector = { configFile: unlessEmpty(this.configFile) };
  }
}
