/**
 * core/v1 Binding and the pods/binding rules (pkg/registry/core/pod/storage BindingREST;
 * api-semantics §14.2): decode, validation, the URL name check, and the atomic assignment of a
 * pod to a node, with the real server's errors.
 */
import {
  aggregateFieldErrors,
  badRequest,
  conflict,
  FieldPath,
  formatTime,
  microTimeFromDate,
  notSupported,
  required,
  unknownError,
  type FieldError,
  type StatusError,
} from '@keel/apimachinery';
import {
  objectMetaSpec,
  objectReferenceSpec,
  type ObjectMeta,
  type ObjectReference,
  wireCodec,
  always,
  str,
  struct,
} from '@keel/resource';
import type { Pod, PodCondition } from './pod-types.js';
import { coreTarget } from './scheme.js';

export interface Binding {
  metadata: ObjectMeta;
  target?: ObjectReference;
}

const bindingSpec = struct('v1.Binding', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  target: always(objectReferenceSpec),
});

export const bindingCodec = wireCodec<Binding>(coreTarget('Binding'), bindingSpec);

/** Decodes a Binding body (400 StatusError for a bad one); unknown fields are returned too. */
export function decodeBinding(body: unknown): { object: Binding; unknownFields: readonly string[] } {
  return bindingCodec.decode(body);
}

/** ValidatePodBinding. */
export function validateBinding(b: Binding): FieldError[] {
  const errs: FieldError[] = [];
  const kind = b.target?.kind ?? '';
  if (kind !== '' && kind !== 'Node')
    errs.push(notSupported(FieldPath.of('target', 'kind'), kind, ['Node', '<empty>']));
  if (!b.target?.name) errs.push(required(FieldPath.of('target', 'name')));
  return errs;
}

/**
 * BindingREST returns the plain aggregate of the field errors (not a 422), which the server
 * writes as a reason-less 500: `target.name: Required value`.
 */
export function bindingValidationError(errs: readonly FieldError[]): StatusError {
  return unknownError(aggregateFieldErrors(errs));
}

/** The handler's check: the URL's pod name must be the Binding's name (400 otherwise). */
export function checkBindingName(urlName: string, b: Binding): void {
  if (urlName !== (b.metadata.name ?? ''))
    throw badRequest('name in URL does not match name in Binding object');
}

const pods = { group: '', resource: 'pods' };
const podsBinding = { group: '', resource: 'pods/binding' };

/** podutil.UpdatePodCondition: replace or append; keep the transition time if the status did not change. */
function setCondition(conditions: PodCondition[], next: PodCondition): PodCondition[] {
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) return [...conditions, next];
  const old = conditions[i] ?? {};
  const kept = old.status === next.status ? { ...next, lastTransitionTime: old.lastTransitionTime } : next;
  return conditions.map((c, j) => (j === i ? kept : c));
}

/**
 * Assigns `pod` to the Binding's node, as the atomic update inside BindingREST does: uid and
 * resourceVersion preconditions (409 `Operation cannot be fulfilled on pods "<pod>": Precondition failed: ...`),
 * then the state checks (409 `Operation cannot be fulfilled on pods/binding "<pod>": <msg>`).
 * Returns the new pod: nodeName set, the Binding's annotations merged, PodScheduled=True.
 */
export function applyBinding(pod: Pod, binding: Binding, now: Date = new Date()): Pod {
  const name = pod.metadata.name ?? '';
  const wantUid = binding.metadata.uid ?? '';
  const uid = pod.metadata.uid ?? '';
  if (wantUid !== '' && wantUid !== uid) {
    throw conflict(
      pods,
      name,
      `Precondition failed: UID in precondition: ${wantUid}, UID in object meta: ${uid}`,
    );
  }
  const wantRv = binding.metadata.resourceVersion ?? '';
  const rv = pod.metadata.resourceVersion ?? '';
  if (wantRv !== '' && wantRv !== rv) {
    throw conflict(
      pods,
      name,
      `Precondition failed: ResourceVersion in precondition: ${wantRv}, ResourceVersion in object meta: ${rv}`,
    );
  }
  const state = (msg: string): StatusError => conflict(podsBinding, name, msg);
  if (pod.metadata.deletionTimestamp)
    throw state(`pod ${name} is being deleted, cannot be assigned to a host`);
  const current = pod.spec?.nodeName ?? '';
  if (current !== '') throw state(`pod ${name} is already assigned to node "${current}"`);
  if (pod.spec?.schedulingGates?.length) throw state(`pod ${name} has non-empty .spec.schedulingGates`);
  // A new pod sharing what it does not change with `pod`, which stays as it was (no deep copy:
  // the binding path encodes the result at once).
  const next: Pod = {
    ...pod,
    metadata: { ...pod.metadata },
    spec: { ...(pod.spec ?? {}), nodeName: binding.target?.name ?? '' },
  };
  const annotations = binding.metadata.annotations ?? {};
  if (Object.keys(annotations).length > 0)
    next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...annotations };
  const scheduled: PodCondition = {
    type: 'PodScheduled',
    status: 'True',
    lastTransitionTime: formatTime(microTimeFromDate(now)) ?? undefined,
  };
  next.status = {
    ...(next.status ?? {}),
    conditions: setCondition(next.status?.conditions ?? [], scheduled),
  };
  return next;
}
