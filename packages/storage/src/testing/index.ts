export { describeStorageConformance } from './conformance.js';
export {
  defaultConformanceOptions,
  EventCollector,
  eventually,
  type ConformanceStoreOptions,
  type MakeStore,
} from './helpers.js';
