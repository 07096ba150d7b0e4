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
 * value → count. A map handed to a reader never changes: a cycle's PreFilter state keeps what it
 * read, as kube's snapshot copy would. Instead of copying the whole map on the first change after
 * a read (a copy of up to one entry per node per assumed pod for a hostname key), the view handed
 * out records the values it saw of the keys changed since; see CountsView.
 */
class CowCounts {
  private readonly m = new Map<string, number>();
  /** The newest view handed out, and whether the map changed since. */
  private latest: CountsView | undefined;
  private dirty = false;

  read(): ReadonlyMap<string, number> {
    if (this.latest && !this.dirty) return this.latest;
    const v = new CountsView(this.m);
    if (this.latest) this.latest.seal(v);
    this.latest = v;
    this.dirty = false;
    return v;
  }

  add(value: string, n: number): void {
    const old = this.m.get(value);
    if (this.latest) {
      this.latest.remember(value, old);
      this.dirty = true;
    }
    const v = (old ?? 0) + n;
    if (v === 0) this.m.delete(value);
    else this.m.set(value, v);
  }
}

/**
 * The counts as of one read. `undo` holds, for each key changed after this view was taken and
 * before the next one, its value as of this view (undefined: absent); a key not in it has the
 * value the next view sees, and the newest view reads the live map. Views only point at newer
 * ones, so an old view nobody holds is collected; one held across many later reads pays a walk
 * along the views taken since (a cycle's state is dropped when its cycle ends).
 */
class CountsView implements ReadonlyMap<string, number> {
  private undo: Map<string, number | undefined> | undefined;
  private newer: CountsView | undefined;
  private materialized: Map<string, number> | undefined;

  constructor(private readonly live: Map<string, number>) {}

  /** The live map is about to change `key`, which this (newest) view saw as `old`. */
  remember(key: string, old: number | undefined): void {
    this.undo ??= new Map();
    if (!this.undo.has(key)) this.undo.set(key, old);
  }

  /** A newer view was taken: later changes are recorded there. */
  seal(next: CountsView): void {
    this.newer = next;
  }

  get(key: string): number | undefined {
    // No change since this view was taken (so it is the newest): the live map is its state.
    if (!this.undo) return this.live.get(key);
    if (this.undo.has(key)) return this.undo.get(key);
    for (let v = this.newer; v; v = v.newer) {
      if (v.undo?.has(key)) return v.undo.get(key);
    }
    return this.live.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The whole map as of this view: the live one while nothing changed since, else a copy kept. */
  private map(): ReadonlyMap<string, number> {
    if (!this.undo) return this.live;
    if (this.materialized) return this.materialized;
    const chain: ReadonlyMap<string, number | undefined>[] = [this.undo];
    for (let v = this.newer; v; v = v.newer) if (v.undo) chain.push(v.undo);
    const m = new Map(this.live);
    // The oldest recorded value of a key wins: apply the newest views first.
    for (let i = chain.length - 1; i >= 0; i--) {
      for (const [k, n] of chain[i] ?? []) {
        if (n === undefined) m.delete(k);
        else m.set(k, n);
      }
    }
    this.materialized = m;
    return m;
  }

  get size(): number {
    return this.map().size;
  }

  forEach(
    cb: (value: number, key: string, map: ReadonlyMap<string, number>) => void,
    thisArg?: unknown,
  ): void {
    for (const [k, n] of this.map()) cb.call(thisArg, n, k, this);
  }

  entries(): MapIterator<[string, number]> {
    return this.map().entries();
  }

  keys(): MapIterator<string> {
    return this.map().keys();
  }

  values(): MapIterator<number> {
    return this.map().values();
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.map().entries();
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
