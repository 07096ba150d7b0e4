/**
 * ObjectMeta validation (apimachinery api/validation/objectmeta.go and meta/v1/validation):
 * names, namespace, labels, annotations, owner references, finalizers, managedFields, and the
 * fields an update may not change. Map keys are checked in sorted order so the error list is
 * stable (Go's map order is random).
 */
import { duplicate, forbiddenField, invalidValue, required, tooLong, type FieldError } from './field-errors.js';
import { FieldPath } from './field-path.js';
import { compareGoStrings, goQuote, utf8Length } from './go-format.js';
import { equalMicroTime, formatTime, parseTime, TimeParseError } from './time.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSSubdomain, validateNamespaceName, type NameValidator } from './validation.js';
import { validateFieldManager } from './write-options.js';

export interface OwnerReferenceMeta {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly uid?: string;
  readonly controller?: boolean | null;
  readonly blockOwnerDeletion?: boolean | null;
}

export interface ManagedFieldsEntryMeta {
  readonly manager?: string;
  readonly operation?: string;
  readonly fieldsType?: string;
  readonly subresource?: string;
}

/** The ObjectMeta fields validation looks at, as they appear on the wire. */
export interface ObjectMetaInput {
  readonly name?: string;
  readonly generateName?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string | null;
  readonly deletionTimestamp?: string | null;
  readonly deletionGracePeriodSeconds?: number | null;
  readonly labels?: Readonly<Record<string, string>> | null;
  readonly annotations?: Readonly<Record<string, string>> | null;
  readonly ownerReferences?: readonly OwnerReferenceMeta[] | null;
  readonly finalizers?: readonly string[] | null;
  readonly managedFields?: readonly ManagedFieldsEntryMeta[] | null;
}

export const totalAnnotationSizeLimitBytes = 256 * 1024;

const sortedEntries = (m: Readonly<Record<string, string>> | null | undefined): [string, string][] =>
  Object.entries(m ?? {}).sort(([a], [b]) => compareGoStrings(a, b));

export function validateLabels(labels: Readonly<Record<string, string>> | null | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of sortedEntries(labels)) {
    for (const msg of isQualifiedName(k)) errs.push(invalidValue(p, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalidValue(p, v, msg));
  }
  return errs;
}

/** Keys are qualified names ignoring case; all keys and values together at most 256 KiB. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | null | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of sortedEntries(annotations)) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalidValue(p, k, msg));
    size += utf8Length(k) + utf8Length(v);
  }
  if (size > totalAnnotationSizeLimitBytes) errs.push(tooLong(p, totalAnnotationSizeLimitBytes));
  return errs;
}

export function validateOwnerReferences(refs: readonly OwnerReferenceMeta[] | null | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    const apiVersion = ref.apiVersion ?? '';
    // Go's ParseGroupVersion: "v1", "group/v1"; more slashes make it unparsable (no version).
    const parts = apiVersion.split('/');
    const version = parts.length > 2 ? '' : (parts[parts.length - 1] ?? '');
    if (!version) errs.push(invalidValue(p.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (!ref.kind) errs.push(invalidValue(p.child('kind'), ref.kind ?? '', 'must not be empty'));
    if (!ref.name) errs.push(invalidValue(p.child('name'), ref.name ?? '', 'must not be empty'));
    if (!ref.uid) errs.push(invalidValue(p.child('uid'), ref.uid ?? '', 'must not be empty'));
    if (apiVersion === 'v1' && ref.kind === 'Event') errs.push(invalidValue(p, ref, '/v1, Kind=Event is disallowed from being an owner'));
    if (ref.controller) {
      const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController) {
        errs.push(
          invalidValue(p, refs, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

export function validateFinalizers(finalizers: readonly string[] | null | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) for (const msg of isQualifiedName(f)) errs.push(invalidValue(p, f, msg));
  const list = finalizers ?? [];
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(invalidValue(p, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

export function validateManagedFields(entries: readonly ManagedFieldsEntryMeta[] | null | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const ip = p.index(i);
    if (e.operation !== 'Apply' && e.operation !== 'Update') errs.push(invalidValue(ip.child('operation'), e.operation ?? '', 'must be `Apply` or `Update`'));
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') errs.push(invalidValue(ip.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(e.manager ?? '', ip.child('manager').toString()));
    if (utf8Length(e.subresource ?? '') > 256) errs.push(tooLong(ip.child('subresource'), 256));
  });
  return errs;
}

export interface ObjectMetaRules {
  /** Namespaced kinds need a namespace, cluster-scoped ones must not have one. */
  readonly namespaced: boolean;
  /** The name rule; most kinds use DNS-1123 subdomains. */
  readonly nameValidator?: NameValidator;
}

/** Create-time ObjectMeta validation, paths under `metadata` unless told otherwise. */
export function validateObjectMeta(meta: ObjectMetaInput, rules: ObjectMetaRules, p: FieldPath = FieldPath.of('metadata')): FieldError[] {
  const nameFn = rules.nameValidator ?? nameIsDNSSubdomain;
  const errs: FieldError[] = [];
  if (meta.generateName) for (const msg of nameFn(meta.generateName, true)) errs.push(invalidValue(p.child('generateName'), meta.generateName, msg));
  if (!meta.name) errs.push(required(p.child('name'), 'name or generateName is required'));
  else for (const msg of nameFn(meta.name, false)) errs.push(invalidValue(p.child('name'), meta.name, msg));
  if (rules.namespaced) {
    if (!meta.namespace) errs.push(required(p.child('namespace')));
    else for (const msg of validateNamespaceName(meta.namespace, false)) errs.push(invalidValue(p.child('namespace'), meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(forbiddenField(p.child('namespace'), 'not allowed on this type'));
  }
  if ((meta.generation ?? 0) < 0) errs.push(invalidValue(p.child('generation'), meta.generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, p.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, p.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, p.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, p.child('finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, p.child('managedFields')));
  return errs;
}

export const fieldImmutableErrorMsg = 'field is immutable';

/** A timestamp as its wire text compares: the instant when it parses, else the text. */
function sameTime(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  const [ta, tb] = [parseTime(a), parseTime(b)];
  if (ta instanceof TimeParseError || tb instanceof TimeParseError) return a === b;
  return equalMicroTime(ta, tb);
}

function shownTime(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = parseTime(s);
  return t instanceof TimeParseError ? s : formatTime(t);
}

/**
 * Update-time ObjectMeta validation. Like Go it demands `resourceVersion`: callers that allow
 * unconditional updates fill in the stored one before validating.
 */
export function validateObjectMetaUpdate(next: ObjectMetaInput, prev: ObjectMetaInput, p: FieldPath = FieldPath.of('metadata')): FieldError[] {
  const errs: FieldError[] = [];
  if (prev.deletionTimestamp) {
    const added = [...new Set(next.finalizers ?? [])].filter((f) => !(prev.finalizers ?? []).includes(f)).sort(compareGoStrings);
    if (added.length > 0) {
      const list = `[]string{${added.map((f) => goQuote(f)).join(', ')}}`;
      errs.push(forbiddenField(p.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`));
    }
  }
  if (!next.resourceVersion) errs.push(invalidValue(p.child('resourceVersion'), next.resourceVersion ?? '', 'must be specified for an update'));
  if ((next.generation ?? 0) < (prev.generation ?? 0)) errs.push(invalidValue(p.child('generation'), next.generation ?? 0, 'must not be decremented'));
  const immutable = (field: string, a: unknown, b: unknown, shown: unknown): void => {
    if (a !== b) errs.push(invalidValue(p.child(field), shown, fieldImmutableErrorMsg));
  };
  immutable('name', next.name ?? '', prev.name ?? '', next.name ?? '');
  immutable('namespace', next.namespace ?? '', prev.namespace ?? '', next.namespace ?? '');
  immutable('uid', next.uid ?? '', prev.uid ?? '', next.uid ?? '');
  if (!sameTime(next.creationTimestamp, prev.creationTimestamp)) {
    errs.push(invalidValue(p.child('creationTimestamp'), shownTime(next.creationTimestamp), fieldImmutableErrorMsg));
  }
  if (!sameTime(next.deletionTimestamp, prev.deletionTimestamp)) {
    errs.push(invalidValue(p.child('deletionTimestamp'), shownTime(next.deletionTimestamp), fieldImmutableErrorMsg));
  }
  const [ng, pg] = [next.deletionGracePeriodSeconds ?? null, prev.deletionGracePeriodSeconds ?? null];
  immutable('deletionGracePeriodSeconds', ng, pg, ng);
  errs.push(...validateLabels(next.labels, p.child('labels')));
  errs.push(...validateAnnotations(next.annotations, p.child('annotations')));
  errs.push(...validateOwnerReferences(next.ownerReferences, p.child('ownerReferences')));
  errs.push(...validateManagedFields(next.managedFields, p.child('managedFields')));
  return errs;
}

/** Fails with `Duplicate value` for repeated entries of a list field (a common helper). */
export function validateNoDuplicates(values: readonly string[], p: FieldPath): FieldError[] {
  const seen = new Set<string>();
  const errs: FieldError[] = [];
  values.forEach((v, i) => {
    if (seen.has(v)) errs.push(duplicate(p.index(i), v));
    seen.add(v);
  });
  return errs;
}
