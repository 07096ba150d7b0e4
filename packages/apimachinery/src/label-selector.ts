/**
 * Label selector requirements and selectors: a port of apimachinery labels.Requirement and
 * labels.Selector (validation, matching, string form). Parsing is in label-selector-parser.ts.
 */
import { badRequest } from './errors.js';
import { aggregateFieldErrors, invalidValue, notSupported, type FieldError } from './field-errors.js';
import { FieldPath } from './field-path.js';
import { compareGoStrings, GoNumError, parseGoInt64 } from './go-format.js';
import { isQualifiedName, isValidLabelValue } from './validation.js';

/** The selection operators, spelled as apimachinery's selection package spells them. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

const binaryOperators: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const validOperators: readonly LabelOperator[] = [...binaryOperators, 'exists', '!'];

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>>;

function child(p: FieldPath | null, name: string): FieldPath {
  return p ? p.child(name) : FieldPath.of(name);
}

/** The key check alone; `null` is Go's nil path (`<nil>: Invalid value: ...`). */
export function labelKeyError(key: string, p: FieldPath | null): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? invalidValue(p, key, errs.join('; ')) : undefined;
}

function isInt64(s: string): boolean {
  try {
    parseGoInt64(s);
    return true;
  } catch (err) {
    if (err instanceof GoNumError) return false;
    throw err;
  }
}

/** Go's NewRequirement checks; an empty list means the requirement is valid. */
export function validateLabelRequirement(req: LabelRequirement, p: FieldPath | null = null): FieldError[] {
  const { key, operator: op, values } = req;
  const errs: FieldError[] = [];
  const ke = labelKeyError(key, child(p, 'key'));
  if (ke) errs.push(ke);
  const valuePath = child(p, 'values');
  if (op === 'in' || op === 'notin') {
    if (values.length === 0) errs.push(invalidValue(valuePath, values, "for 'in', 'notin' operators, values set can't be empty"));
  } else if (op === '=' || op === '==' || op === '!=') {
    if (values.length !== 1) errs.push(invalidValue(valuePath, values, 'exact-match compatibility requires one single value'));
  } else if (op === 'exists' || op === '!') {
    if (values.length !== 0) errs.push(invalidValue(valuePath, values, 'values set must be empty for exists and does not exist'));
  } else if (op === 'gt' || op === 'lt') {
    if (values.length !== 1) errs.push(invalidValue(valuePath, values, "for 'Gt', 'Lt' operators, exactly one value is required"));
    values.forEach((v, i) => {
      if (!isInt64(v)) errs.push(invalidValue(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    });
  } else {
    errs.push(notSupported(child(p, 'operator'), op, validOperators));
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(invalidValue(valuePath.index(i).key(key), v, msgs.join('; ')));
  });
  return errs;
}

/** A validated requirement; throws a 400 with Go's aggregate text when it is not valid. */
export function newLabelRequirement(key: string, operator: LabelOperator, values: readonly string[]): LabelRequirement {
  const req = { key, operator, values: [...values] };
  const errs = validateLabelRequirement(req);
  if (errs.length > 0) throw badRequest(aggregateFieldErrors(errs));
  return req;
}

export function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(value ?? '');
    case 'notin':
    case '!=':
      return !has || !r.values.includes(value ?? '');
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1 || !isInt64(value ?? '') || !isInt64(r.values[0] ?? '')) return false;
      const lhs = parseGoInt64(value ?? '');
      const rhs = parseGoInt64(r.values[0] ?? '');
      return r.operator === 'gt' ? lhs > rhs : lhs < rhs;
    }
  }
}

const operatorText: Readonly<Record<LabelOperator, string>> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

export function requirementString(r: LabelRequirement): string {
  const head = (r.operator === '!' ? '!' : '') + r.key;
  if (r.operator === 'exists' || r.operator === '!') return head;
  const values = r.values.length === 1 ? (r.values[0] ?? '') : [...r.values].sort(compareGoStrings).join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${head}${operatorText[r.operator]}${set ? `(${values})` : values}`;
}

export interface LabelSelector {
  /** Sorted by key, as Go sorts them after parsing. */
  readonly requirements: readonly LabelRequirement[];
  matches(labels: Labels | undefined): boolean;
  /** True when the selector does not restrict anything. */
  isEmpty(): boolean;
  toString(): string;
  /** The single value the selector demands for `label` (`=`, `==` or a one-value `in`). */
  requiresExactMatch(label: string): string | undefined;
}

class RequirementsSelector implements LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  constructor(reqs: readonly LabelRequirement[]) {
    this.requirements = [...reqs].sort((a, b) => compareGoStrings(a.key, b.key));
  }
  matches(labels: Labels | undefined): boolean {
    return this.requirements.every((r) => requirementMatches(r, labels ?? {}));
  }
  isEmpty(): boolean {
    return this.requirements.length === 0;
  }
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
  requiresExactMatch(label: string): string | undefined {
    const r = this.requirements.find((x) => x.key === label);
    if (!r || !['=', '==', 'in'].includes(r.operator) || r.values.length !== 1) return undefined;
    return r.values[0];
  }
}

/** Matches everything. */
export function everythingLabelSelector(): LabelSelector {
  return new RequirementsSelector([]);
}

/** Matches nothing (what a nil metav1.LabelSelector means). */
export function nothingLabelSelector(): LabelSelector {
  return { requirements: [], matches: () => false, isEmpty: () => false, toString: () => '', requiresExactMatch: () => undefined };
}

/** Builds a selector from already-validated requirements. */
export function labelSelectorFromRequirements(reqs: readonly LabelRequirement[]): LabelSelector {
  return new RequirementsSelector(reqs);
}

/** `k1=v1,k2=v2` for a label set, without validation (Go's SelectorFromSet). */
export function labelSelectorFromSet(set: Labels): LabelSelector {
  return new RequirementsSelector(Object.entries(set).map(([key, v]) => ({ key, operator: '=', values: [v] })));
}
