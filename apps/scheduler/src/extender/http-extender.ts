/**
 * One configured extender (kube's HTTPExtender): which verbs it offers, which pods it wants, and
 * the four calls, each a JSON POST to `<urlPrefix>/<verb>`.
 */
import type { Snapshot } from '../cache/snapshot.js';
import type { NodeInfo } from '../framework/node-info.js';
import type { Container, Node, Pod } from '../framework/types.js';
import type { Extender } from '../options/extender-config.js';
import { newTransport, type ExtenderTransport } from './transport.js';
import {
  bindingArgs,
  decodeBindingResult,
  decodeFilterResult,
  decodeHostPriorityList,
  decodePreemptionResult,
  extenderArgs,
  preemptionArgs,
  type HostPriority,
  type Victims,
} from './wire.js';

export interface ExtenderFilterOutcome {
  /** The nodes the extender kept, a subset of the input, in the extender's order. */
  readonly feasible: NodeInfo[];
  readonly failedNodes: ReadonlyMap<string, string>;
  readonly failedAndUnresolvableNodes: ReadonlyMap<string, string>;
}

export interface ExtenderBinding {
  readonly podName: string;
  readonly podNamespace: string;
  readonly podUID: string;
  readonly node: string;
}

const nodesOf = (infos: readonly NodeInfo[]): Node[] => infos.flatMap((n) => (n.node ? [n.node] : []));

export class HTTPExtender {
  private readonly transport: ExtenderTransport;
  private readonly managed: ReadonlySet<string>;

  /** Throws when the TLS material cannot be loaded (a start-up error). */
  constructor(readonly config: Extender) {
    this.transport = newTransport(config);
    this.managed = new Set(config.managedResources.map((r) => r.name));
  }

  /** kube names an extender by its URL prefix in logs and errors. */
  get name(): string {
    return this.config.urlPrefix;
  }

  get ignorable(): boolean {
    return this.config.ignorable;
  }

  isFilter(): boolean {
    return this.config.filterVerb !== '';
  }

  isPrioritizer(): boolean {
    return this.config.prioritizeVerb !== '';
  }

  isBinder(): boolean {
    return this.config.bindVerb !== '';
  }

  supportsPreemption(): boolean {
    return this.config.preemptVerb !== '';
  }

  /**
   * An extender with managed resources only sees pods that request or limit one of them, in a
   * container or an init container; one without sees every pod.
   */
  isInterested(pod: Pod): boolean {
    if (this.managed.size === 0) return true;
    const wants = (cs: readonly Container[] | null | undefined) =>
      (cs ?? []).some((c) =>
        [c.resources?.requests, c.resources?.limits].some((l) =>
          Object.keys(l ?? {}).some((r) => this.managed.has(r)),
        ),
      );
    return wants(pod.spec.containers) || wants(pod.spec.initContainers);
  }

  /** kube's Filter. Without a filter verb every node passes. Throws on any failure. */
  async filter(pod: Pod, nodes: readonly NodeInfo[]): Promise<ExtenderFilterOutcome> {
    const { filterVerb, nodeCacheCapable } = this.config;
    if (filterVerb === '')
      return { feasible: [...nodes], failedNodes: new Map(), failedAndUnresolvableNodes: new Map() };
    const result = decodeFilterResult(
      await this.transport.post(filterVerb, extenderArgs(pod, nodesOf(nodes), nodeCacheCapable)),
    );
    if (result.error !== '') throw new Error(result.error);
    // Names only count from a node-caching extender; with neither list, no node passes.
    const names = nodeCacheCapable && result.nodeNames ? result.nodeNames : result.nodeListNames;
    const byName = new Map(nodes.map((n) => [n.name, n]));
    const feasible = (names ?? []).map((name) => {
      const n = byName.get(name);
      if (!n)
        throw new Error(
          `extender ${JSON.stringify(this.name)} claims a filtered node ${JSON.stringify(name)} which is not found in the input node list`,
        );
      return n;
    });
    return {
      feasible,
      failedNodes: result.failedNodes,
      failedAndUnresolvableNodes: result.failedAndUnresolvableNodes,
    };
  }

  /** kube's Prioritize: scores 0..10 per host and the weight to apply. Without the verb, all 0. */
  async prioritize(
    pod: Pod,
    nodes: readonly NodeInfo[],
  ): Promise<{ scores: HostPriority[]; weight: number }> {
    const { prioritizeVerb, nodeCacheCapable, weight } = this.config;
    if (prioritizeVerb === '') return { scores: nodes.map((n) => ({ host: n.name, score: 0 })), weight: 0 };
    const raw = await this.transport.post(
      prioritizeVerb,
      extenderArgs(pod, nodesOf(nodes), nodeCacheCapable),
    );
    return { scores: decodeHostPriorityList(raw), weight };
  }

  /** kube's Bind: the extender binds the pod (to the API server) itself. Throws on failure. */
  async bind(b: ExtenderBinding): Promise<void> {
    if (!this.isBinder()) throw new Error('unexpected empty bindVerb in extender');
    const raw = await this.transport.post(
      this.config.bindVerb,
      bindingArgs(b.podName, b.podNamespace, b.podUID, b.node),
    );
    const error = decodeBindingResult(raw);
    if (error !== '') throw new Error(error);
  }

  /**
   * kube's ProcessPreemption: sends the candidate victims and returns the extender's choice, its
   * pod UIDs resolved against the snapshot's pods on each node. Throws on any failure, including
   * a node or pod the snapshot does not have.
   */
  async processPreemption(
    pod: Pod,
    victims: ReadonlyMap<string, Victims>,
    snapshot: Pick<Snapshot, 'get'>,
  ): Promise<Map<string, Victims>> {
    if (!this.supportsPreemption())
      throw new Error(`preempt verb is not defined for extender ${this.name} but run into ProcessPreemption`);
    const raw = await this.transport.post(
      this.config.preemptVerb,
      preemptionArgs(pod, victims, this.config.nodeCacheCapable),
    );
    const out = new Map<string, Victims>();
    for (const [nodeName, meta] of decodePreemptionResult(raw)) {
      const info = snapshot.get(nodeName);
      if (!info) throw new Error(`nodeinfo not found for node name ${JSON.stringify(nodeName)}`);
      const pods = meta.podUIDs.map((uid) => {
        for (const p of info.pods.values()) if (p.pod.metadata.uid === uid) return p.pod;
        throw new Error(
          `extender: ${this.name} claims to preempt pod (UID: ${uid}) on node: ${nodeName}, but the pod is not found on that node`,
        );
      });
      out.set(nodeName, { pods, numPDBViolations: meta.numPDBViolations });
    }
    return out;
  }

  close(): void {
    this.transport.close();
  }
}
