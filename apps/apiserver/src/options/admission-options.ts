import { UNSERVED_PLUGINS } from '@keel/admission';
import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import {
  ALL_ADMISSION_PLUGINS,
  DEFAULT_ENABLED_ADMISSION_PLUGINS,
  isAdmissionPlugin,
  type AdmissionPlugin,
} from './admission-plugins.js';
import { unlessEmpty } from './rules.js';

export interface AdmissionConfig {
  /** The plugins that run, in running order: the defaults plus the enabled minus the disabled. */
  readonly plugins: readonly AdmissionPlugin[];
  /** Per-plugin configuration file, read at startup. */
  readonly configFile: string | undefined;
}

export class AdmissionOptions implements OptionsGroup<{ admission?: AdmissionConfig }> {
  admissionControlConfigFile = '';
  enableAdmissionPlugins: readonly string[] = [];
  disableAdmissionPlugins: readonly string[] = [];

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Admission');
    const known = ALL_ADMISSION_PLUGINS.join(', ');
    // Keel serves none of these plugins' kinds: say so where an operator reads the list.
    const idle =
      ` In Keel, ${[...UNSERVED_PLUGINS.keys()].join(', ')} have nothing to act on ` +
      '(it serves no volumes, storage or ingress classes or certificate requests).';
    s.var(this, 'admissionControlConfigFile', {
      name: 'admission-control-config-file',
      type: t.string,
      usage: 'File with admission control configuration.',
    });
    s.var(this, 'disableAdmissionPlugins', {
      name: 'disable-admission-plugins',
      type: t.strings,
      usage:
        'admission plugins that should be disabled although they are in the default enabled plugins list ' +
        `(${DEFAULT_ENABLED_ADMISSION_PLUGINS.join(', ')}). Comma-delimited list of admission plugins: ${known}. ` +
        'The order of plugins in this flag does not matter.' +
        idle,
    });
    s.var(this, 'enableAdmissionPlugins', {
      name: 'enable-admission-plugins',
      type: t.strings,
      usage:
        'admission plugins that should be enabled in addition to default enabled ones ' +
        `(${DEFAULT_ENABLED_ADMISSION_PLUGINS.join(', ')}). Comma-delimited list of admission plugins: ${known}. ` +
        'The order of plugins in this flag does not matter.' +
        idle,
    });
  }

  validate(): string[] {
    const unknown = (flag: string, names: readonly string[]) =>
      names.filter((n) => !isAdmissionPlugin(n)).map((n) => `--${flag}: unknown plugin ${JSON.stringify(n)}`);
    const disabled = new Set(this.disableAdmissionPlugins);
    const both = [...new Set(this.enableAdmissionPlugins)].filter((n) => disabled.has(n));
    return [
      ...unknown('enable-admission-plugins', this.enableAdmissionPlugins),
      ...unknown('disable-admission-plugins', this.disableAdmissionPlugins),
      ...both.map(
        (n) => `${JSON.stringify(n)} is in both --enable-admission-plugins and --disable-admission-plugins`,
      ),
    ];
  }

  applyTo(config: { admission?: AdmissionConfig }): void {
    const on = new Set<string>([...DEFAULT_ENABLED_ADMISSION_PLUGINS, ...this.enableAdmissionPlugins]);
    for (const n of this.disableAdmissionPlugins) on.delete(n);
    config.admission = {
      plugins: ALL_ADMISSION_PLUGINS.filter((n) => on.has(n)),
      configFile: unlessEmpty(this.admissionControlConfigFile),
    };
  }
}
