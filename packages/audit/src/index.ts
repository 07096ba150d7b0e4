export {
  AUDIT_VERSIONS,
  LEVELS,
  STAGES,
  levelAtLeast,
  type AuditEvent,
  type AuditVersion,
  type EventUser,
  type Instant,
  type Level,
  type ObjectReference,
  type RequestAttributes,
  type ResponseStatus,
  type Stage,
} from './types.js';
export {
  loadPolicyFile,
  parsePolicy,
  PolicyError,
  type Policy,
  type PolicyRule,
  type GroupResources,
} from './policy.js';
export { evaluatePolicy, type AuditDecision } from './policy-checker.js';
export { encodeEvent, encodeEventList, legacyLine } from './encode.js';
export { nowInstant } from './clock.js';
export { sourceIPs } from './source-ips.js';
export {
  RequestAudit,
  DECISION_ANNOTATION,
  REASON_ANNOTATION,
  eventUser,
  type RequestMetadata,
  type UserLike,
} from './request-audit.js';
export { Auditor } from './auditor.js';
export { noAuditMetrics, type AuditMetrics } from './metrics.js';
export {
  buildSinks,
  AuditConfigError,
  type AuditMode,
  type SinkOptions,
  type LogSinkOptions,
  type WebhookSinkOptions,
} from './build.js';
export type { Sink, ErrorLog } from './sink.js';
export type { BatchOptions } from './batch.js';
export type { TruncateOptions } from './truncate.js';
export type { RotationOptions } from './rotating-file.js';
export type { LogFormat } from './log-backend.js';
