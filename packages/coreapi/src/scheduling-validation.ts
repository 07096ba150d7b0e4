/**
 * The scheduling-related shapes of pkg/apis/core/validation: tolerations, taint effects, node
 * selectors and (anti-)affinity terms, with Go's messages. Struct values in messages are the
 * internal Go types as JSON (capitalised field names), as the field errors render them.
 */
import {
  FieldPath,
  forbiddenField,
  invalidValue,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSSubdomain,
  notSupported,
  required,
  validateLabels,
  validateNamespaceName,
  type FieldError,
} from '@keel/apimachinery';
import type { Affinity, LabelSelector, NodeSelectorTerm, PodAffinityRules, PodAffinityTerm, SelectorRequirement, Toleration } from './pod-types.js';

export const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** ValidateLabelName: a qualified name. */
export function validateLabelName(name: string, p: FieldPath): FieldError[] {
  return isQualifiedName(name).map((msg) => invalidValue(p, name, msg));
}

/** validateTaintEffect. */
export function validateTaintEffect(effect: string, allowEmpty: boolean, p: FieldPath): FieldError[] {
  if (!allowEmpty && effect === '') return [required(p)];
  return (taintEffects as readonly string[]).includes(effect) ? [] : [notSupported(p, effect, taintEffects)];
}

/** The internal core.Toleration as Go's field errors print it. */
function tolerationValue(t: Toleration): unknown {
  return { Key: t.key ?? '', Operator: t.operator ?? '', Value: t.value ?? '', Effect: t.effect ?? '', TolerationSeconds: t.tolerationSeconds ?? null };
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: readonly Toleration[] | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const ip = p.index(i);
    const [key, operator, value, effect] = [t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? ''];
    if (key !== '') errs.push(...validateLabelName(key, ip.child('key')));
    if (key === '' && operator !== 'Exists') {
      errs.push(invalidValue(ip.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && effect !== 'NoExecute') {
      errs.push(invalidValue(ip.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(invalidValue(ip.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') errs.push(invalidValue(ip.child('operator'), tolerationValue(t), "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(ip.child('operator'), operator, ['Equal', 'Exists']));
    }
    if (effect !== '') errs.push(...validateTaintEffect(effect, true, ip.child('effect')));
  });
  return errs;
}

function nodeSelectorRequirement(r: SelectorRequirement, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = r.values ?? [];
  switch (r.operator ?? '') {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbiddenField(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(required(p.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalidValue(p.child('operator'), r.operator ?? '', 'not a valid selector operator'));
  }
  return [...errs, ...validateLabelName(r.key ?? '', p.child('key'))];
}

function nodeFieldSelectorRequirement(r: SelectorRequirement, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = r.values ?? [];
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(p.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalidValue(p.child('operator'), r.operator ?? '', 'not a valid selector operator'));
  }
  if (r.key !== 'metadata.name') {
    errs.push(invalidValue(p.child('key'), r.key ?? '', 'not a valid field selector key'));
  } else {
    values.forEach((v, i) => errs.push(...nameIsDNSSubdomain(v, false).map((msg) => invalidValue(p.child('values').index(i), v, msg))));
  }
  return errs;
}

export function validateNodeSelectorTerm(term: NodeSelectorTerm | undefined, p: FieldPath): FieldError[] {
  return [
    ...(term?.matchExpressions ?? []).flatMap((r, j) => nodeSelectorRequirement(r, p.child('matchExpressions').index(j))),
    ...(term?.matchFields ?? []).flatMap((r, j) => nodeFieldSelectorRequirement(r, p.child('matchFields').index(j))),
  ];
}

/** metav1 validation.ValidateLabelSelector (strict label values). */
export function validateLabelSelector(s: LabelSelector | undefined, p: FieldPath): FieldError[] {
  if (!s) return [];
  const errs = validateLabels(s.matchLabels, p.child('matchLabels'));
  (s.matchExpressions ?? []).forEach((r, i) => {
    const ip = p.child('matchExpressions').index(i);
    const values = r.values ?? [];
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length === 0) errs.push(required(ip.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length > 0) errs.push(forbiddenField(ip.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalidValue(ip.child('operator'), r.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(r.key ?? '', ip.child('key')));
    values.forEach((v, j) => errs.push(...isValidLabelValue(v).map((msg) => invalidValue(ip.child('values').index(j), v, msg))));
  });
  return errs;
}

function podAffinityTerm(t: PodAffinityTerm | undefined, p: FieldPath): FieldError[] {
  const errs = validateLabelSelector(t?.labelSelector, p.child('labelSelector'));
  errs.push(...validateLabelSelector(t?.namespaceSelector, p.child('namespaceSelector')));
  for (const ns of t?.namespaces ?? []) errs.push(...validateNamespaceName(ns, false).map((msg) => invalidValue(p.child('namespace'), ns, msg)));
  const key = t?.topologyKey ?? '';
  if (key === '') errs.push(required(p.child('topologyKey'), 'can not be empty'));
  return [...errs, ...validateLabelName(key, p.child('topologyKey'))];
}

function podAffinityRules(rules: PodAffinityRules, p: FieldPath): FieldError[] {
  const req = p.child('requiredDuringSchedulingIgnoredDuringExecution');
  const pref = p.child('preferredDuringSchedulingIgnoredDuringExecution');
  return [
    ...(rules.requiredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((t, i) => podAffinityTerm(t, req.index(i))),
    ...(rules.preferredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((w, i) => {
      const weight = w.weight ?? 0;
      const errs = weight <= 0 || weight > 100 ? [invalidValue(pref.index(i).child('weight'), weight, 'must be in the range 1-100')] : [];
      return [...errs, ...podAffinityTerm(w.podAffinityTerm, pref.index(i).child('podAffinityTerm'))];
    }),
  ];
}

/** validateAffinity. */
export function validateAffinity(a: Affinity | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const na = a?.nodeAffinity;
  if (na) {
    const np = p.child('nodeAffinity');
    const selector = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (selector) {
      const tp = np.child('requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
      const terms = selector.nodeSelectorTerms ?? [];
      if (terms.length === 0) errs.push(required(tp, 'must have at least one node selector term'));
      terms.forEach((t, i) => errs.push(...validateNodeSelectorTerm(t, tp.index(i))));
    }
    (na.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      const ip = np.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const weight = t.weight ?? 0;
      if (weight <= 0 || weight > 100) errs.push(invalidValue(ip.child('weight'), weight, 'must be in the range 1-100'));
      errs.push(...validateNodeSelectorTerm(t.preference, ip.child('preference')));
    });
  }
  if (a?.podAffinity) errs.push(...podAffinityRules(a.podAffinity, p.child('podAffinity')));
  if (a?.podAntiAffinity) errs.push(...podAffinityRules(a.podAntiAffinity, p.child('podAntiAffinity')));
  return errs;
}

export const specPath = FieldPath.of('spec');
