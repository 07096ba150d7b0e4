export { FeatureOptions } from './feature-options.js';
export { FeatureGates, checkOverrides, describeKnownFeatures, type FeatureSpecs } from './feature-gates.js';
export {
  ALL_ALPHA,
  ALL_BETA,
  keelFeatures,
  type FeatureSpec,
  type KeelStatus,
  type KnownFeature,
  type PreRelease,
} from './known-features.js';
