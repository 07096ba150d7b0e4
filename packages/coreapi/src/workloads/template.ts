/**
 * What ReplicationControllers, ReplicaSets and StatefulSets share: the pod template on the wire,
 * its defaulting (SetDefaults_PodSpec through the template), ValidatePodTemplateSpec under the
 * owner's field path, the selector-matches-template check and the wide table cells.
 */
import type { FieldPath } from '@keel/apimachinery';
import {
  forbiddenField,
  invalidValue,
  notSupported,
  labelSelectorFromSpec,
  required,
  validateLabels,
  type FieldError,
  type LabelSelectorSpec,
  type SmpSchema,
} from '@keel/apimachinery';
import { objectMetaSpec, struct, type ObjectMeta } from '@keel/resource';
import { defaultPod } from '../pod-defaults.js';
import { podSmpSchema } from '../pod-fields.js';
import { podSpecWire } from '../pod-schema.js';
import type { LabelSelector, PodSpec } from '../pod-types.js';
import { validatePodSpec } from '../pod-validation.js';
import { validateLabelSelector } from '../scheduling-validation.js';

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

export const podTemplateSpecWire = struct('v1.PodTemplateSpec', {
  metadata: objectMetaSpec,
  spec: podSpecWire,
});

/** SetDefaults_PodSpec and its containers', as a decode of the owner runs them on its template. */
export function defaultTemplate(t: PodTemplateSpec | undefined): void {
  if (!t) return;
  const pod = { metadata: t.metadata ?? {}, spec: t.spec ?? {} };
  defaultPod(pod);
  t.spec = pod.spec;
}

/** The pod's strategic merge patch tags, re-rooted under the template at `prefix` (`spec.template`). */
export function templateSmpSchema(prefix: string): SmpSchema {
  return Object.fromEntries(
    Object.entries(podSmpSchema)
      .filter(([k]) => k.startsWith('spec.'))
      .map(([k, v]) => [`${prefix}.${k}`, v]),
  );
}

/** validatePodSpec names fields from `spec`; the template's live under `<prefix>.spec`. */
function rebase(errs: readonly FieldError[], prefix: FieldPath): FieldError[] {
  const root = prefix.toString();
  return errs.map((e) => ({ ...e, field: `${root}.${e.field}` }));
}

/**
 * ValidatePodTemplateSpec plus the owners' common checks: the template's labels are valid and
 * matched by the selector, and (for rc/rs/sts) the restart policy is Always.
 */
export function validateTemplate(
  t: PodTemplateSpec | undefined,
  selector: LabelSelector | undefined,
  p: FieldPath,
  ownerKind: string,
): FieldError[] {
  if (!t) return [required(p, '')];
  const labels = t.metadata?.labels ?? {};
  const errs = validateLabels(labels, p.child('metadata', 'labels'));
  if (selector) {
    try {
      if (!labelSelectorFromSpec(asSpec(selector)).matches(labels))
        errs.push(
          invalidValue(p.child('metadata', 'labels'), labels, '`selector` does not match template `labels`'),
        );
    } catch {
      // An invalid selector is reported by the selector's own validation.
    }
  }
  errs.push(...rebase(validatePodSpec(t.spec ?? {}), p));
  const restart = t.spec?.restartPolicy ?? '';
  if (restart !== 'Always') errs.push(notSupported(p.child('spec', 'restartPolicy'), restart, ['Always']));
  if (t.spec?.activeDeadlineSeconds !== undefined)
    errs.push(
      forbiddenField(
        p.child('spec', 'activeDeadlineSeconds'),
        `activeDeadlineSeconds in ${ownerKind} is not Supported`,
      ),
    );
  return errs;
}

/** ValidateNonEmptySelector + ValidateLabelSelector for apps selectors (required, non-empty). */
export function validateSelector(
  selector: LabelSelector | undefined,
  p: FieldPath,
  what: string,
): FieldError[] {
  if (!selector) return [required(p, '')];
  const errs = validateLabelSelector(selector, p);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0)
    errs.push(invalidValue(p, selector, `empty selector is invalid for ${what}`));
  return errs;
}

/** The selector as the label selector parser takes it (a missing key or operator is the empty string). */
function asSpec(s: LabelSelector): LabelSelectorSpec {
  return {
    ...(s.matchLabels ? { matchLabels: s.matchLabels } : {}),
    matchExpressions: (s.matchExpressions ?? []).map((r) => ({
      key: r.key ?? '',
      operator: r.operator ?? '',
      values: r.values ?? [],
    })),
  };
}

/** The Containers and Images wide cells (layoutContainerCells). */
export function containerCells(spec: PodSpec | undefined): [string, string] {
  const cs = spec?.containers ?? [];
  return [cs.map((c) => c.name ?? '').join(','), cs.map((c) => c.image ?? '').join(',')];
}

/**
 * metav1.LabelSelectorAsSelector(...).String(): the selector as a string (`a=b,c in (d)`), empty
 * for an empty selector; a Scale's status.selector. Throws for a selector that does not parse.
 */
export function selectorString(selector: LabelSelector | undefined): string {
  return selector ? labelSelectorFromSpec(asSpec(selector)).toString() : '';
}

/** metav1.FormatLabelSelector: `<none>` for nil or empty, else the selector string. */
export function formatSelector(selector: LabelSelector | undefined): string {
  if (!selector) return '<none>';
  try {
    const s = labelSelectorFromSpec(asSpec(selector)).toString();
    return s === '' ? '<none>' : s;
  } catch {
    return '<error>';
  }
}
