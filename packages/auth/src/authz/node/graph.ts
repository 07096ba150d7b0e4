/**
 * What each node may reach (kube's node authorizer Graph), kept from the server's informers.
 * Every edge points toward nodes: a pod bound to a node reaches it, and so does every object the
 * pod names; a persistent volume reaches whatever its claim reaches, and the secrets it names
 * reach whatever the volume reaches. Edges whose node is known when they are added ("destination
 * edges" in kube) are counted per vertex and node, so most checks are one map read; the others
 * (through PVs) are followed.
 */

export type VertexType =
  | 'configmap'
  | 'node'
  | 'pod'
  | 'pvc'
  | 'pv'
  | 'resourceclaim'
  | 'resourceslice'
  | 'secret'
  | 'serviceAccount'
  | 'volumeattachment';

export interface Vertex {
  readonly type: VertexType;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
}

/** `from` reaches the node `node` directly, or reaches whatever the vertex `to` reaches. */
export type GraphEdge =
  { readonly from: Vertex; readonly node: string } | { readonly from: Vertex; readonly to: Vertex };

/**
 * One kind of object that adds edges to the graph (pods, persistent volumes, ...), and the
 * key root its informer watches. An object owns the edges it adds: they are replaced when it
 * changes and removed when it goes.
 */
export interface GraphSource<T = object> {
  readonly name: string;
  readonly keyRoot: string;
  /** The object's own vertex, which names it as the owner of its edges. */
  vertexOf(obj: T): Vertex;
  /** The edges the object adds (none for e.g. a pod not yet bound). */
  edgesOf(obj: T): readonly GraphEdge[];
}

function id(v: Vertex): string {
  return `${v.type}\u0000${v.namespace}\u0000${v.name}`;
}

function bump(index: Map<string, Map<string, number>>, from: string, to: string, by: 1 | -1): void {
  let counts = index.get(from);
  if (!counts) index.set(from, (counts = new Map<string, number>()));
  const n = (counts.get(to) ?? 0) + by;
  if (n > 0) counts.set(to, n);
  else counts.delete(to);
  if (counts.size === 0) index.delete(from);
}

export class NodeGraph {
  /** vertex → node → number of edges saying the vertex reaches that node. */
  private readonly reachesNode = new Map<string, Map<string, number>>();
  /** vertex → vertex it reaches whatever of → number of edges. */
  private readonly links = new Map<string, Map<string, number>>();
  /** owner (source + vertex) → the edges it added. */
  private readonly owned = new Map<string, readonly GraphEdge[]>();
  /** source → its owners, for replacing a source's whole state after a re-read. */
  private readonly bySource = new Map<string, Set<string>>();

  /** Adds or replaces what `obj` contributes. */
  set<T>(source: GraphSource<T>, obj: T): void {
    this.setOwned(source.name, id(source.vertexOf(obj)), source.edgesOf(obj));
  }

  /** Removes what `obj` contributed. */
  delete<T>(source: GraphSource<T>, obj: T): void {
    this.setOwned(source.name, id(source.vertexOf(obj)), []);
  }

  /** Replaces everything `source` contributed by what `objects` contribute (after a full read). */
  reset<T>(source: GraphSource<T>, objects: Iterable<T>): void {
    for (const owner of [...(this.bySource.get(source.name) ?? [])]) this.setOwned(source.name, owner, []);
    for (const obj of objects) this.set(source, obj);
  }

  /** Whether there is a path from `start` to the node (kube's hasPathFrom). */
  reaches(nodeName: string, start: Vertex): boolean {
    const seen = new Set<string>();
    const visit = (v: string): boolean => {
      if (seen.has(v)) return false;
      seen.add(v);
      if (this.reachesNode.get(v)?.has(nodeName)) return true;
      for (const next of this.links.get(v)?.keys() ?? []) if (visit(next)) return true;
      return false;
    };
    return visit(id(start));
  }

  private setOwned(source: string, vertex: string, edges: readonly GraphEdge[]): void {
    const owner = `${source}\u0000${vertex}`;
    for (const e of this.owned.get(owner) ?? []) this.apply(e, -1);
    let owners = this.bySource.get(source);
    if (edges.length === 0) {
      this.owned.delete(owner);
      owners?.delete(vertex);
      return;
    }
    for (const e of edges) this.apply(e, 1);
    this.owned.set(owner, edges);
    if (!owners) this.bySource.set(source, (owners = new Set<string>()));
    owners.add(vertex);
  }

  private apply(e: GraphEdge, by: 1 | -1): void {
    if ('node' in e) bump(this.reachesNode, id(e.from), e.node, by);
    else bump(this.links, id(e.from), id(e.to), by);
  }
}
