export type {
  AdmissionAttributes,
  AdmittedObject,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
} from './attributes.js';
export type { Admission, AdmissionPlugin } from './plugin.js';
export { AdmissionChain, noAdmission } from './chain.js';
export { admissionForbidden } from './forbidden.js';
export {
  ADMISSION_PLUGINS,
  buildAdmissionChain,
  type AdmissionPluginDeps,
  type AdmissionPluginFactory,
  type ObjectLookup,
} from './registry.js';
