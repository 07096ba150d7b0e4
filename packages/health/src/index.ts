export { namedCheck, pingCheck, shutdownCheck, timeoutCheck, type HealthChecker } from './checker.js';
export {
  healthHandler,
  combineHandlers,
  toMiddleware,
  type HealthHandler,
  type HealthHandlerOptions,
} from './handler.js';
export {
  HealthRegistries,
  systemClock,
  type Clock,
  type HealthRegistriesOptions,
  type HealthInstallOptions,
} from './registries.js';
export { PostStartHooks, type PostStartHook, type BootSequenceChecks } from './post-start-hooks.js';
