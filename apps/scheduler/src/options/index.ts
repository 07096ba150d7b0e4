export {
  ALL_PLUGINS,
  CONTENT_TYPES,
  DEFAULT_MULTI_POINT,
  DEFAULT_SCHEDULER_NAME,
  EXTENSION_POINTS,
  KNOWN_PLUGINS,
  SCHEDULER_CONFIG_API_VERSION,
  SCHEDULER_CONFIG_KIND,
  type ClientConnection,
  type ExtensionPoint,
  type Plugin,
  type PluginConfig,
  type PluginSet,
  type Plugins,
  type SchedulerConfiguration,
  type SchedulerProfile,
} from './config-types.js';
export { applyDefaults, defaultSchedulerConfiguration, mergePluginSet } from './config-defaults.js';
export { validateConfigFile, validateSchedulerConfiguration } from './config-rules.js';
export {
  loadSchedulerConfigFile,
  readSchedulerConfigFile,
  serializeSchedulerConfig,
  writeEffectiveConfig,
  type ConfigFileResult,
} from './config-file.js';
export { DeprecatedSchedulerOptions } from './deprecated-options.js';
export { SchedulerOptions } from './scheduler-options.js';
export { resolveSchedulerConfiguration, type ResolveResult, type SchedulerSettings } from './resolve.js';
