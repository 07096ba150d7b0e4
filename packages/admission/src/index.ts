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
export { admissionForbidden, admissionName } from './forbidden.js';
export {
  noAdmissionMetrics,
  withControllerMetrics,
  withStepMetrics,
  type AdmissionMetrics,
  type AdmissionPhase,
  type LatencyObserver,
  type WebhookPhase,
  type WebhookRejectionErrorType,
} from './metrics.js';
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
export { UNSERVED_PLUGINS } from './plugins/unserved.js';
export {
  evaluatorFor,
  isIgnoredResource,
  objectCountName,
  quotaMatches,
  usageOf,
  type GroupResource,
  type QuotaEvaluator,
} from './quota/evaluators.js';
export { sameList, type ResourceList } from './quota/resource-lists.js';
export type { QuotaLike, ScopeRequirement } from './quota/scopes.js';
