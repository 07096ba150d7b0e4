/**
 * The legacy Event rules, which every request version runs on create and on update
 * (pkg/apis/core/validation/events.go legacyValidateEvent; api-semantics §1.2). Paths use the
 * stored (core) names; only the reporting controller's path follows the request version.
 * Lengths are UTF-8 bytes, and a value that is too long is reported as `""`.
 */
import {
  invalidValue,
  isDNS1123Subdomain,
  isQualifiedName,
  required,
  utf8Length,
  type FieldError,
} from '@keel/apimachinery';
import type { InternalEvent } from './types.js';

export const reportingInstanceLengthLimit = 128;
export const actionLengthLimit = 128;
export const reasonLengthLimit = 128;
export const noteLengthLimit = 1024;

/** `reportingComponent` for core/v1 requests, `reportingController` otherwise (PR #111506). */
export type ReportingControllerPath = 'reportingComponent' | 'reportingController';

const namespaceMismatch = 'does not match event.namespace';

function requiredWithLimit(errs: FieldError[], field: string, value: string, limit: number): void {
  if (value.length === 0) errs.push(required(field));
  if (utf8Length(value) > limit) errs.push(invalidValue(field, '', `can have at most ${limit} characters`));
}

export function validateEventLegacy(e: InternalEvent, reportingPath: ReportingControllerPath): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = e.metadata.namespace ?? '';
  const involvedNamespace = e.involvedObject?.namespace ?? '';
  if (!e.eventTime) {
    // Old-style events: the event lives in its object's namespace ("" or default for cluster objects).
    const ok =
      involvedNamespace === ''
        ? namespace === '' || namespace === 'default'
        : namespace === involvedNamespace;
    if (!ok) errs.push(invalidValue('involvedObject.namespace', involvedNamespace, namespaceMismatch));
  } else {
    if (involvedNamespace === '' && namespace !== 'default' && namespace !== 'kube-system') {
      errs.push(invalidValue('involvedObject.namespace', involvedNamespace, namespaceMismatch));
    }
    const controller = e.reportingComponent ?? '';
    if (controller.length === 0) errs.push(required(reportingPath));
    for (const msg of isQualifiedName(controller)) errs.push(invalidValue(reportingPath, controller, msg));
    requiredWithLimit(errs, 'reportingInstance', e.reportingInstance ?? '', reportingInstanceLengthLimit);
    requiredWithLimit(errs, 'action', e.action ?? '', actionLengthLimit);
    requiredWithLimit(errs, 'reason', e.reason ?? '', reasonLengthLimit);
    if (utf8Length(e.message ?? '') > noteLengthLimit) {
      errs.push(invalidValue('message', '', `can have at most ${noteLengthLimit} characters`));
    }
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(invalidValue('namespace', namespace, msg));
  return errs;
}
