/** metav1.LabelSelector (matchLabels/matchExpressions) to a selector, as LabelSelectorAsSelector. */
import { badRequest } from './errors.js';
import { aggregateFieldErrors } from './field-errors.js';
import { goQuote } from './go-format.js';
import {
  everythingLabelSelector,
  labelSelectorFromRequirements,
  nothingLabelSelector,
  validateLabelRequirement,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelector,
} from './label-selector.js';

export interface LabelSelectorRequirementSpec {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | null;
}

export interface LabelSelectorSpec {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?: readonly LabelSelectorRequirementSpec[] | null;
}

const operators: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * A nil selector matches nothing, an empty one everything. Invalid keys, values or operators
 * throw a 400 with Go's error text (`"Foo" is not a valid label selector operator`).
 */
export function labelSelectorFromSpec(spec: LabelSelectorSpec | null | undefined): LabelSelector {
  if (!spec) return nothingLabelSelector();
  const labels = Object.entries(spec.matchLabels ?? {});
  const exprs = spec.matchExpressions ?? [];
  if (labels.length + exprs.length === 0) return everythingLabelSelector();
  const reqs: LabelRequirement[] = [];
  const add = (req: LabelRequirement): void => {
    const errs = validateLabelRequirement(req);
    if (errs.length > 0) throw badRequest(aggregateFieldErrors(errs));
    reqs.push(req);
  };
  for (const [key, value] of labels) add({ key, operator: '=', values: [value] });
  for (const expr of exprs) {
    const operator = Object.hasOwn(operators, expr.operator) ? operators[expr.operator] : undefined;
    if (!operator) throw badRequest(`${goQuote(expr.operator)} is not a valid label selector operator`);
    add({ key: expr.key, operator, values: [...(expr.values ?? [])] });
  }
  return labelSelectorFromRequirements(reqs);
}
