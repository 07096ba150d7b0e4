export type {
  AdmissionAttributes,
  AdmittedObject,
  GroupVersionKind,
  GroupVersionResource,
  ObjectCodec,
  Operation,
} from './attributes.js';
export type { Admission, AdmissionPlugin } from './plugin.js';
export { AdmissionChain, noAdmission } from './chain.js';
export { admissionForbidden } from './forbidden.js';
export {
  ADMISSION_PLUGINS,
  prepareAdmission,
  type AdmissionFlags,
  type AdmissionPluginDefinition,
  type AdmissionPluginDeps,
  type AdmissionPluginFactory,
  type ObjectIndex,
  type ObjectLookup,
  type PreparedAdmission,
} from './registry.js';
export { loadAdmissionConfiguration, type PluginConfig } from './configuration.js';
export { ConfigFileError } from '@keel/config-file';
