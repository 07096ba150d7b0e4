import type {
  Node,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  PreferredSchedulingTerm,
} from '../../framework/types.js';

type Labels = Readonly<Record<string, string>>;
type Matcher = (labels: Labels, nodeName: string) => boolean;

const INT = /^[+-]?\d+$/;

function hasLabel(labels: Labels, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(labels, key);
}

/**
 * One matchExpressions requirement as kube's labels.Requirement. A malformed requirement (unknown
 * operator, wrong number of values, Gt/Lt with a non-integer) returns undefined: its term is
 * invalid and matches nothing, as with kube's lazy parse errors.
 */
function labelRequirement(r: NodeSelectorRequirement): ((labels: Labels) => boolean) | undefined {
  const values = r.values ?? [];
  const key = r.key;
  switch (r.operator) {
    case 'In':
    case 'NotIn': {
      if (values.length === 0) return undefined;
      const set = new Set(values);
      const inSet = (l: Labels) => hasLabel(l, key) && set.has(l[key] as string);
      return r.operator === 'In' ? inSet : (l) => !inSet(l);
    }
    case 'Exists':
      return values.length === 0 ? (l) => hasLabel(l, key) : undefined;
    case 'DoesNotExist':
      return values.length === 0 ? (l) => !hasLabel(l, key) : undefined;
    case 'Gt':
    case 'Lt': {
      const v = values[0];
      if (values.length !== 1 || v === undefined || !INT.test(v)) return undefined;
      const bound = BigInt(v);
      const gt = r.operator === 'Gt';
      return (l) => {
        const lv = l[key];
        if (!hasLabel(l, key) || lv === undefined || !INT.test(lv)) return false;
        return gt ? BigInt(lv) > bound : BigInt(lv) < bound;
      };
    }
    default:
      return undefined;
  }
}

/** A matchFields requirement: In / NotIn with exactly one value, over the node's `metadata.name`. */
function fieldRequirement(r: NodeSelectorRequirement): ((nodeName: string) => boolean) | undefined {
  const values = r.values ?? [];
  if ((r.operator !== 'In' && r.operator !== 'NotIn') || values.length !== 1) return undefined;
  const want = values[0];
  const field = (name: string) => (r.key === 'metadata.name' ? name : '');
  return r.operator === 'In' ? (n) => field(n) === want : (n) => field(n) !== want;
}

/** A term ANDs its requirements; an empty term returns undefined (it is ignored). */
function compileTerm(term: NodeSelectorTerm): Matcher | undefined {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return undefined;
  const labelReqs = exprs.map(labelRequirement);
  const fieldReqs = fields.map(fieldRequirement);
  if (labelReqs.includes(undefined) || fieldReqs.includes(undefined)) return () => false;
  const l = labelReqs as ((labels: Labels) => boolean)[];
  const f = fieldReqs as ((nodeName: string) => boolean)[];
  return (labels, name) => l.every((m) => m(labels)) && f.every((m) => m(name));
}

function nodeLabels(node: Node): Labels {
  return node.metadata.labels ?? {};
}

/**
 * kube's RequiredNodeAffinity: the pod's nodeSelector (every label equal) AND its required node
 * affinity (any of the terms). Undefined when the pod constrains neither.
 */
export function requiredNodeAffinity(pod: Pod): ((node: Node) => boolean) | undefined {
  const selector = Object.entries(pod.spec.nodeSelector ?? {});
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (selector.length === 0 && !required) return undefined;
  const terms = (required?.nodeSelectorTerms ?? []).map(compileTerm).filter((m) => m !== undefined);
  return (node) => {
    const labels = nodeLabels(node);
    for (const [k, v] of selector) if (!hasLabel(labels, k) || labels[k] !== v) return false;
    if (!required) return true;
    return terms.some((m) => m(labels, node.metadata.name));
  };
}

/** kube's PreferredSchedulingTerms: the sum of the weights of the terms a node matches. */
export function preferredNodeAffinity(pod: Pod): ((node: Node) => number) | undefined {
  const preferred: readonly PreferredSchedulingTerm[] =
    pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  const terms: { weight: number; match: Matcher }[] = [];
  for (const t of preferred) {
    const match = t.weight === 0 ? undefined : compileTerm(t.preference);
    if (match) terms.push({ weight: t.weight, match });
  }
  if (terms.length === 0) return undefined;
  return (node) => {
    const labels = nodeLabels(node);
    let score = 0;
    for (const t of terms) if (t.match(labels, node.metadata.name)) score += t.weight;
    return score;
  };
}

/**
 * kube's MatchNodeSelectorTerms over a whole NodeSelector (a PersistentVolume's required node
 * affinity): any term matches; no usable term matches nothing.
 */
export function nodeSelectorMatches(selector: NodeSelector, node: Node): boolean {
  const terms = selector.nodeSelectorTerms.map(compileTerm).filter((m) => m !== undefined);
  return terms.some((m) => m(nodeLabels(node), node.metadata.name));
}
