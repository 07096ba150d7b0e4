import { AdmissionChain } from './chain.js';
import { loadAdmissionConfiguration, type PluginConfig } from './configuration.js';
import type { AdmissionFlags, AdmissionPluginDeps } from './definition.js';
import { withControllerMetrics } from './metrics.js';
import type { AdmissionPlugin } from './plugin.js';
import { ADMISSION_PLUGINS } from './plugins/index.js';

export type {
  AdmissionFlags,
  AdmissionPluginDefinition,
  AdmissionPluginDeps,
  AdmissionPluginFactory,
  ObjectIndex,
  ObjectLookup,
} from './definition.js';
export { ADMISSION_PLUGINS } from './plugins/index.js';

/** The enabled plugins with their configuration checked: builds the chain once the store is open. */
export interface PreparedAdmission {
  build(deps: AdmissionPluginDeps): AdmissionChain;
  /** e.g. configuration given for a plugin that is not enabled. */
  readonly warnings: readonly string[];
}

/**
 * Reads --admission-control-config-file and prepares the enabled plugins, in the order given (the
 * admission options already sort them in the real server's order). Throws ConfigFileError.
 */
export function prepareAdmission(
  enabled: readonly string[],
  opts: { readonly configFile?: string | undefined; readonly flags: AdmissionFlags },
): PreparedAdmission {
  const configs = opts.configFile
    ? loadAdmissionConfiguration(opts.configFile)
    : new Map<string, PluginConfig>();
  const on = new Set(enabled);
  const warnings = [...configs.entries()]
    .filter(([name]) => !on.has(name))
    .map(([name, c]) => `${c.source}: configuration for ${name}, which is not enabled, is not used`);
  const factories = enabled.flatMap((name) => {
    const def = ADMISSION_PLUGINS.get(name);
    // The options accept only known names, and every known name has a definition (tested).
    if (!def) throw new Error(`admission plugin ${name} has no definition`);
    return [def.prepare(configs.get(name), opts.flags)];
  });
  return {
    warnings,
    build: (deps) => {
      const { metrics } = deps;
      const timed = (p: AdmissionPlugin) =>
        metrics ? withControllerMetrics(p, metrics.controller(p.name)) : p;
      return new AdmissionChain(factories.map((f) => timed(f(deps))));
    },
  };
}
