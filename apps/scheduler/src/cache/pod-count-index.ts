import { termKey, type AffinityTerm, type WeightedAffinityTerm } from '../framework/affinity-terms.js';
import type { NodeInfo, PodInfo } from '../framework/node-info.js';
import type { Node, Pod } from '../framework/types.js';

/**
 * Which pods to count: `key` names the predicate (two queries with the same key must match the
 * same pods), `matches` decides for one pod. Counts are per value of `topologyKey`, over the nodes
 * with a Node object that carry `topologyKey` and every label in `requiredKeys`.
 */
export interface PodQuery {
  readonly key: string;
  readonly matches: (pod: Pod) => boolean;
  readonly topologyKey: string;
  readonly requiredKeys?: readonly string[];
}

/** The kinds of existing pods' terms the index groups: all but required affinity's are per-term. */
export type TermKind =
  'requiredAffinity' | 'requiredAntiAffinity' | 'preferredAffinity' | 'preferredAntiAffinity';
const TERM_KINDS: readonly TermKind[] = [
  'requiredAffinity',
  'requiredAntiAffinity',
  'preferredAffinity',
  'preferredAntiAffinity',
];

/** One distinct term of existing pods, with those pods counted per value of its topology key. */
export interface TermCounts {
  readonly term: AffinityTerm | WeightedAffinityTerm;
  readonly counts: ReadonlyMap<string, number>;
}

/**
 * value → count. A map handed to a reader is never changed again: the next change copies it
 * first, so a cycle's PreFilter state keeps what it read, as kube's snapshot copy would.
 */
class CowCounts {
  private m = new Map<string, number>();
  private shared = false;

  read(): ReadonlyMap<string, number> {
    this.shared = true;
    return this.m;
  }

  add(value: string, n: number): void {
    if (this.shared) {
      this.m = new Map(this.m);
      this.shared = false;
    }
    const v = (this.m.get(value) ?? 0) + n;
    if (v === 0) this.m.delete(value);
    else this.m.set(value, v);
  }
}

/** The node's value for `key` if it has a Node object with `key` and every required key. */
function valueOf(node: Node | undefined, key: string, required: readonly string[]): string | undefined {
  const labels = node?.metadata.labels;
  if (!labels || !Object.hasOwn(labels, key)) return undefined;
  for (const k of required) if (!Object.hasOwn(labels, k)) return undefined;
  return labels[key];
}

interface View {
  readonly key: string;
  readonly required: readonly string[];
  readonly counts: CowCounts;
}

/**
 * A count per node (only nodes with a non-zero count) and, built on first use and kept in step
 * since, its sums per topology value for each (topology key, required keys) asked.
 */
class Tally {
  readonly perNode = new Map<NodeInfo, number>();
  private readonly views = new Map<string, View>();

  view(key: string, required: readonly string[]): ReadonlyMap<string, number> {
    const id = `${key}\u0000${required.join('\u0000')}`;
    let v = this.views.get(id);
    if (!v) {
      v = { key, required, counts: new CowCounts() };
      for (const [info, n] of this.perNode) {
        const value = valueOf(info.node, key, required);
        if (value !== undefined) v.counts.add(value, n);
      }
      this.views.set(id, v);
    }
    return v.counts.read();
  }

  /** Adds `n` at the node, counted under the labels of `node` (its Node object unless given). */
  add(info: NodeInfo, n: number, node = info.node): void {
    const cur = (this.perNode.get(info) ?? 0) + n;
    if (cur === 0) this.perNode.delete(info);
    else this.perNode.set(info, cur);
    for (const v of this.views.values()) {
      const value = valueOf(node, v.key, v.required);
      if (value !== undefined) v.counts.add(value, n);
    }
  }

  /** The node's Node object (so maybe its labels) changed from `old` to `info.node`. */
  nodeChanged(info: NodeInfo, old: Node | undefined): void {
    const n = this.perNode.get(info);
    if (n === undefined) return;
    for (const v of this.views.values()) {
      const before = valueOf(old, v.key, v.required);
      const after = valueOf(info.node, v.key, v.required);
      if (before === after) continue;
      if (before !== undefined) v.counts.add(before, -n);
      if (after !== undefined) v.counts.add(after, n);
    }
  }
}

interface Selection {
  readonly matches: (pod: Pod) => boolean;
  readonly tally: Tally;
}

interface TermEntry {
  readonly term: AffinityTerm | WeightedAffinityTerm;
  readonly tally: Tally;
}

const NO_KEYS: readonly string[] = [];

/**
 * Counts of existing pods per topology domain, kept in step with the cache (pod add, remove and
 * update, Node add, label change and removal) so that PodTopologySpread's and InterPodAffinity's
 * PreFilter cost the number of matching domains instead of a visit to every node:
 * - pods matching a query, per topology value (the incoming pod's affinity and anti-affinity terms,
 *   a spread constraint's selector); a query is counted over every pod once when first asked, then
 *   updated; the least recently asked beyond `maxQueries` are dropped;
 * - existing pods' (anti-)affinity terms by kind, grouped by what they select (and their weight),
 *   counted per value of their topology key;
 * - nodes per topology value (a spread constraint's domains, zero counts included).
 * Namespace labels are not part of any count: callers fold them into the query key or evaluate
 * them per cycle against the term.
 */
export class PodCountIndex {
  private readonly selections = new Map<string, Selection>();
  private readonly terms = new Map<TermKind, Map<string, TermEntry>>(TERM_KINDS.map((k) => [k, new Map()]));
  /** Every node with a Node object, counted 1. */
  private readonly nodeTally = new Tally();

  constructor(
    private readonly nodes: ReadonlyMap<string, NodeInfo>,
    private readonly maxQueries = 64,
  ) {}

  podAdded(p: PodInfo, info: NodeInfo): void {
    this.pod(p, info, 1);
  }

  podRemoved(p: PodInfo, info: NodeInfo): void {
    this.pod(p, info, -1);
  }

  private pod(p: PodInfo, info: NodeInfo, sign: 1 | -1): void {
    for (const s of this.selections.values()) if (s.matches(p.pod)) s.tally.add(info, sign);
    if (!p.withAffinity) return;
    for (const kind of TERM_KINDS) {
      const entries = this.terms.get(kind) as Map<string, TermEntry>;
      for (const t of p.affinity[kind]) {
        const w = 'weight' in t ? t.weight : '';
        const id = `${termKey(t)}\u0000${t.topologyKey}\u0000${w}`;
        let e = entries.get(id);
        if (!e) entries.set(id, (e = { term: t, tally: new Tally() }));
        e.tally.add(info, sign);
        if (e.tally.perNode.size === 0) entries.delete(id);
      }
    }
  }

  /** After the node's Node object was set or replaced; `old` is the one before, if any. */
  nodeSet(info: NodeInfo, old: Node | undefined): void {
    if (old === undefined) this.nodeTally.add(info, 1);
    else this.nodeTally.nodeChanged(info, old);
    this.nodeChanged(info, old);
  }

  /** After the node's Node object was removed; `old` is the one it had. */
  nodeRemoved(info: NodeInfo, old: Node): void {
    this.nodeTally.add(info, -1, old);
    this.nodeChanged(info, old);
  }

  private nodeChanged(info: NodeInfo, old: Node | undefined): void {
    for (const s of this.selections.values()) s.tally.nodeChanged(info, old);
    for (const entries of this.terms.values())
      for (const e of entries.values()) e.tally.nodeChanged(info, old);
  }

  /** Pods matching the query per topology value (no zero entries). Do not change the map. */
  podCounts(q: PodQuery): ReadonlyMap<string, number> {
    let s = this.selections.get(q.key);
    if (s) {
      this.selections.delete(q.key);
    } else {
      s = { matches: q.matches, tally: new Tally() };
      for (const info of this.nodes.values()) {
        for (const p of info.pods.values()) if (q.matches(p.pod)) s.tally.add(info, 1);
      }
      if (this.selections.size >= this.maxQueries) {
        const oldest = this.selections.keys().next().value;
        if (oldest !== undefined) this.selections.delete(oldest);
      }
    }
    this.selections.set(q.key, s);
    return s.tally.view(q.topologyKey, q.requiredKeys ?? NO_KEYS);
  }

  /** Nodes per value of `topologyKey`, over nodes that also have every required key. */
  domains(topologyKey: string, requiredKeys: readonly string[] = NO_KEYS): ReadonlyMap<string, number> {
    return this.nodeTally.view(topologyKey, requiredKeys);
  }

  /** The distinct terms of one kind of existing pods, counted where those pods are. */
  *existingTerms(kind: TermKind): Iterable<TermCounts> {
    for (const e of (this.terms.get(kind) as Map<string, TermEntry>).values()) {
      const counts = e.tally.view(e.term.topologyKey, NO_KEYS);
      if (counts.size > 0) yield { term: e.term, counts };
    }
  }

  /** How many queries are kept (for tests of the bound). */
  queryCount(): number {
    return this.selections.size;
  }
}
