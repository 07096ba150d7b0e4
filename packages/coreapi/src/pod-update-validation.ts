/**
 * Pod update rules (ValidatePodUpdate, ValidatePodStatusUpdate): a pod's spec is immutable but
 * for container images, activeDeadlineSeconds, added tolerations, removed scheduling gates and a
 * negative grace period set to 1. spec.nodeName therefore only changes through pods/binding.
 *
 * The Forbidden message ends with a diff of the spec. Go prints cmp.Diff of the internal
 * PodSpec; this prints the changed fields in a similar form, which is not byte-identical.
 */
import {
  cloneJson,
  FieldPath,
  forbiddenField,
  goJsonMarshal,
  invalidValue,
  isQualifiedName,
  nameIsDNSSubdomain,
  required,
  type FieldError,
} from '@keel/apimachinery';
import { validateCoreMetaUpdate, sameJson } from '@keel/resource';
import type { Container, Pod, PodSpec, Toleration } from './pod-types.js';
import { DEFAULT_POD_VALIDATION, validatePodSpec, type PodValidationOptions } from './pod-validation.js';
import { validateTolerations } from './scheduling-validation.js';

const spec = FieldPath.of('spec');

export const podUpdateForbiddenMessage =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function containerUpdates(next: Container[] | undefined, prev: Container[] | undefined, p: FieldPath): [FieldError[], boolean] {
  if ((next ?? []).length !== (prev ?? []).length) return [[forbiddenField(p, 'pod updates may not add or remove containers')], true];
  const errs: FieldError[] = [];
  (next ?? []).forEach((c, i) => {
    const image = c.image ?? '';
    if (image === '') errs.push(required(p.index(i).child('image')));
    if (image.trim() !== image) errs.push(invalidValue(p.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return [errs, false];
}

function onlyAddedTolerations(next: Toleration[] | undefined, prev: Toleration[] | undefined, p: FieldPath): FieldError[] {
  for (const old of prev ?? []) {
    const kept = (next ?? []).some((t) => sameJson({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!kept) return [forbiddenField(p, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, p);
}

function onlyDeletedGates(next: PodSpec, prev: PodSpec): FieldError[] {
  const old = new Set((prev.schedulingGates ?? []).map((g) => g.name ?? ''));
  const added = new Map<string, number>();
  (next.schedulingGates ?? []).forEach((g, i) => added.set(g.name ?? '', i));
  return [...added]
    .filter(([name]) => !old.has(name))
    .map(([name, i]) => forbiddenField(spec.child('schedulingGates').index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
}

/** A cmp.Diff-like rendering of the changed top-level fields. */
function specDiff(prev: PodSpec, next: PodSpec): string {
  const keys = [...new Set([...Object.keys(prev), ...Object.keys(next)])];
  const lines = keys
    .filter((k) => !sameJson(prev[k], next[k]))
    .flatMap((k) => {
      const field = k.charAt(0).toUpperCase() + k.slice(1);
      const show = (v: unknown): string => (v === undefined ? '""' : goJsonMarshal(v));
      return [`- \t${field}: ${show(prev[k])},`, `+ \t${field}: ${show(next[k])},`];
    });
  return ['  core.PodSpec{', ...lines, '  }', ''].join('\n');
}

/** The spec with the fields an update may change taken from the old one. */
function mungedSpec(next: PodSpec, prev: PodSpec): PodSpec {
  const m = cloneJson(next);
  const images = (cs: Container[] | undefined, old: Container[] | undefined): Container[] | undefined =>
    cs?.map((c, i) => ({ ...c, image: old?.[i]?.image }));
  m.containers = images(m.containers, prev.containers);
  if (m.initContainers) m.initContainers = images(m.initContainers, prev.initContainers);
  for (const k of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations'] as const) {
    if (prev[k] === undefined) delete m[k];
    else m[k] = cloneJson(prev[k]) as never;
  }
  const oldGrace = prev.terminationGracePeriodSeconds;
  if (oldGrace !== undefined && oldGrace < 0 && m.terminationGracePeriodSeconds === 1) m.terminationGracePeriodSeconds = oldGrace;
  return m;
}

/** ValidatePodUpdate (the strategy's ValidateUpdate). */
export function validatePodUpdate(pod: Pod, old: Pod, opts: PodValidationOptions = DEFAULT_POD_VALIDATION): FieldError[] {
  const next = pod.spec ?? {};
  const prev = old.spec ?? {};
  const errs = [...validateCoreMetaUpdate(pod.metadata, old.metadata), ...validatePodSpec(next, opts)];
  for (const [key, p] of [['containers', spec.child('containers')], ['initContainers', spec.child('initContainers')]] as const) {
    const [cerrs, stop] = containerUpdates(next[key], prev[key], p);
    errs.push(...cerrs);
    if (stop) return errs;
  }
  const deadline = next.activeDeadlineSeconds;
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > 2147483647) {
      return [...errs, invalidValue(spec.child('activeDeadlineSeconds'), deadline, 'must be between 0 and 2147483647, inclusive')];
    }
    if (prev.activeDeadlineSeconds !== undefined && prev.activeDeadlineSeconds < deadline) {
      return [...errs, invalidValue(spec.child('activeDeadlineSeconds'), deadline, 'must be less than or equal to previous value')];
    }
  } else if (prev.activeDeadlineSeconds !== undefined) {
    errs.push(invalidValue(spec.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...onlyAddedTolerations(next.tolerations, prev.tolerations, spec.child('tolerations')));
  errs.push(...onlyDeletedGates(next, prev));
  if (sameJson(next, prev)) return errs;
  const munged = mungedSpec(next, prev);
  if (!sameJson(munged, prev)) errs.push(forbiddenField(spec, `${podUpdateForbiddenMessage}\n${specDiff(prev, munged)}`));
  return errs;
}

const systemConditions = new Set(['PodScheduled', 'Ready', 'Initialized']);

/** ValidatePodStatusUpdate. */
export function validatePodStatusUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = validateCoreMetaUpdate(pod.metadata, old.metadata);
  // Go checks the condition types under the metadata path (a quirk kept for the same messages).
  (pod.status?.conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    if (systemConditions.has(type)) return;
    const p = FieldPath.of('metadata', 'conditions').index(i).child('Type');
    errs.push(...isQualifiedName(type).map((msg) => invalidValue(p, type, msg)));
  });
  const status = FieldPath.of('status');
  if ((pod.spec?.nodeName ?? '') !== (old.spec?.nodeName ?? '')) errs.push(forbiddenField(status.child('nodeName'), 'may not be changed directly'));
  const nominated = pod.status?.nominatedNodeName ?? '';
  if (nominated !== '' && nominated !== (old.status?.nominatedNodeName ?? '')) {
    errs.push(...nameIsDNSSubdomain(nominated, false).map((msg) => invalidValue(status.child('nominatedNodeName'), nominated, msg)));
  }
  errs.push(...validatePodIPs(pod));
  return errs;
}

const ipMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** validatePodIPs / validateHostIPs: each a valid IP. */
export function validatePodIPs(pod: Pod): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['podIPs', 'hostIPs'] as const) {
    (pod.status?.[field] ?? []).forEach((ip, i) => {
      if (!isValidIP(ip.ip ?? '')) errs.push(invalidValue(FieldPath.of('status', field).index(i), ip.ip ?? '', ipMessage));
    });
  }
  return errs;
}

/** netutils.ParseIPSloppy accepts what Go's net.ParseIP accepted (IPv4 with leading zeros too). */
export function isValidIP(s: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) return s.split('.').every((o) => Number(o) <= 255);
  if (!s.includes(':') || /[^0-9a-fA-F:.]/.test(s)) return false;
  try {
    return new URL(`http://[${s}]/`).hostname.length > 0;
  } catch {
    return false;
  }
}
