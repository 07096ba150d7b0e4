export type {
  AdmissionAttributes,
  AdmittedObject,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
} from './attributes.js';
export type { Admission, AdmissionPlugin } from './plugin.js';
export { AdmissionChain, noAdmission } from './chain.js';
