export type { Logger, RootLogger, VerboseLogger } from './logger.js';
export { discardLogger } from './logger.js';
export type { KeyValues } from './kv-format.js';
export { createLogger, type CreateLoggerOptions } from './create-logger.js';
export { checkLogging } from './health.js';
export { LoggingOptions, type LoggingConfig } from './options.js';
export { LOG_FLAG_EFFECTS } from './flag-effects.js';
