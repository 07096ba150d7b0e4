/**
 * LimitRanger's constraints (PodValidateLimitFunc): min, max and maxLimitRequestRatio against each
 * container's (and init container's) requests and limits, and against the pod's totals, with
 * upstream's messages. Quantities compare in milli-units unless a value is too large for them.
 */
import { parseQuantity, quantityMilliValue, quantityValue, type Quantity } from '@keel/resource';
import { asPodTotals } from './limit-ranger-totals.js';
import { containersOf, initContainersOf, type PodLike } from '../quota/pod-shape.js';
import { has, namesOf, type ResourceList } from '../quota/resource-lists.js';
import type { LimitRangeItem } from './limit-ranger.js';

/** resource.MaxMilliValue. */
const maxMilliValue = 9223372036854775n;
const zero: Quantity = { nanos: 0n, format: 'DecimalSI' };

/** requestLimitEnforcedValues: the three at one precision. */
function enforcedValues(req: Quantity, lim: Quantity, enforced: Quantity): [bigint, bigint, bigint] {
  const whole = [req, lim, enforced].map(quantityValue) as [bigint, bigint, bigint];
  if (whole.every((v) => v <= maxMilliValue))
    return [req, lim, enforced].map(quantityMilliValue) as [bigint, bigint, bigint];
  return whole;
}

interface Observed {
  readonly type: string;
  readonly name: string;
  readonly enforced: string;
  readonly requests: ResourceList;
  readonly limits: ResourceList;
}

function values(o: Observed): { req?: string; lim?: string; r: bigint; l: bigint; e: bigint } {
  const req = has(o.requests, o.name) ? o.requests[o.name] : undefined;
  const lim = has(o.limits, o.name) ? o.limits[o.name] : undefined;
  const [r, l, e] = enforcedValues(
    req ? parseQuantity(req) : zero,
    lim ? parseQuantity(lim) : zero,
    parseQuantity(o.enforced),
  );
  return { ...(req !== undefined ? { req } : {}), ...(lim !== undefined ? { lim } : {}), r, l, e };
}

function minConstraint(o: Observed): string | undefined {
  const { req, lim, r, l, e } = values(o);
  const head = `minimum ${o.name} usage per ${o.type} is ${o.enforced}`;
  if (req === undefined) return `${head}.  No request is specified`;
  if (r < e) return `${head}, but request is ${req}`;
  if (lim !== undefined && l < e) return `${head}, but limit is ${lim}`;
  return undefined;
}

function maxConstraint(o: Observed): string | undefined {
  const { req, lim, r, l, e } = values(o);
  const head = `maximum ${o.name} usage per ${o.type} is ${o.enforced}`;
  if (lim === undefined) return `${head}.  No limit is specified`;
  if (l > e) return `${head}, but limit is ${lim}`;
  if (req !== undefined && r > e) return `${head}, but request is ${req}`;
  return undefined;
}

function ratioConstraint(o: Observed): string | undefined {
  const { req, lim, r, l } = values(o);
  const head = `${o.name} max limit to request ratio per ${o.type} is ${o.enforced}`;
  if (req === undefined || r === 0n) return `${head}, but no request is specified or request is 0`;
  if (lim === undefined || l === 0n) return `${head}, but no limit is specified or limit is 0`;
  const observed = Number(l) / Number(r);
  const enforced = parseQuantity(o.enforced);
  const milli = quantityValue(enforced) <= maxMilliValue;
  const [ratio, max] = milli
    ? [observed * 1000, Number(quantityMilliValue(enforced))]
    : [observed, Number(quantityValue(enforced))];
  return ratio > max ? `${head}, but provided ratio is ${observed.toFixed(6)}` : undefined;
}

/** One item's three checks against one set of requests and limits. */
function check(item: LimitRangeItem, type: string, requests: ResourceList, limits: ResourceList): string[] {
  const out: string[] = [];
  const run = (list: ResourceList | undefined, f: (o: Observed) => string | undefined) => {
    for (const name of namesOf(list)) {
      const msg = f({ type, name, enforced: list?.[name] ?? '0', requests, limits });
      if (msg !== undefined) out.push(msg);
    }
  };
  run(item.min, minConstraint);
  run(item.max, maxConstraint);
  run(item.maxLimitRequestRatio, ratioConstraint);
  return out;
}

/** Every violation of one LimitRange's items by `pod`. */
export function limitRangeErrors(items: readonly LimitRangeItem[], pod: PodLike): string[] {
  const errors: string[] = [];
  for (const item of items) {
    if (item.type === 'Container') {
      for (const c of [...containersOf(pod), ...initContainersOf(pod)])
        errors.push(...check(item, 'Container', c.resources?.requests ?? {}, c.resources?.limits ?? {}));
    } else if (item.type === 'Pod') {
      const totals = asPodTotals(pod);
      errors.push(...check(item, 'Pod', totals.requests, totals.limits));
    }
  }
  return errors;
}
