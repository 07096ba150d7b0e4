/**
 * The extender wire format (k8s.io/kube-scheduler/extender/v1). Its Go types carry no json tags, so
 * the fields are named as in Go (`Pod`, `NodeNames`, `FailedNodes`...), and Go's decoder matches
 * them case-insensitively: an extender may answer `nodeNames` or `error`, and so may it here.
 */
import type { Node, Pod } from '../framework/types.js';

/** kube's MaxExtenderPriority: extenders score 0..10, scaled to the framework's 0..100. */
export const MAX_EXTENDER_PRIORITY = 10;

/** Victims of preempting on one node, as the preemption code has them. */
export interface Victims {
  readonly pods: readonly Pod[];
  readonly numPDBViolations: number;
}

export interface HostPriority {
  readonly host: string;
  readonly score: number;
}

export interface FilterResult {
  /** `NodeNames`; undefined when absent or null. */
  readonly nodeNames: readonly string[] | undefined;
  /** The names of the nodes in `Nodes`; undefined when absent or null. */
  readonly nodeListNames: readonly string[] | undefined;
  readonly failedNodes: ReadonlyMap<string, string>;
  readonly failedAndUnresolvableNodes: ReadonlyMap<string, string>;
  readonly error: string;
}

/** ExtenderArgs: the full nodes, or only their names when the extender caches nodes itself. */
export function extenderArgs(pod: Pod, nodes: readonly Node[], nodeCacheCapable: boolean): object {
  return nodeCacheCapable
    ? { Pod: pod, Nodes: null, NodeNames: nodes.map((n) => n.metadata.name ?? '') }
    : { Pod: pod, Nodes: { metadata: {}, items: nodes }, NodeNames: null };
}

export function bindingArgs(podName: string, podNamespace: string, podUID: string, node: string): object {
  return { PodName: podName, PodNamespace: podNamespace, PodUID: podUID, Node: node };
}

/** ExtenderPreemptionArgs: pods by UID (MetaVictims) to a node-caching extender, whole pods otherwise. */
export function preemptionArgs(
  pod: Pod,
  victims: ReadonlyMap<string, Victims>,
  nodeCacheCapable: boolean,
): object {
  const byNode = (f: (v: Victims) => object) => Object.fromEntries([...victims].map(([n, v]) => [n, f(v)]));
  return nodeCacheCapable
    ? {
        Pod: pod,
        NodeNameToVictims: null,
        NodeNameToMetaVictims: byNode((v) => ({
          Pods: v.pods.map((p) => ({ UID: p.metadata.uid ?? '' })),
          NumPDBViolations: v.numPDBViolations,
        })),
      }
    : {
        Pod: pod,
        NodeNameToVictims: byNode((v) => ({ Pods: v.pods, NumPDBViolations: v.numPDBViolations })),
        NodeNameToMetaVictims: null,
      };
}

/** A decoding problem, worded like Go's json errors. */
export class DecodeError extends Error {}

type Json = Record<string, unknown>;

/** Go's field matching: the exact name first, otherwise any case-insensitive match. */
function field(obj: Json, name: string): unknown {
  if (Object.hasOwn(obj, name)) return obj[name];
  const lower = name.toLowerCase();
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : obj[key];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

function mismatch(v: unknown, goType: string, fieldName: string): DecodeError {
  return new DecodeError(
    `json: cannot unmarshal ${typeName(v)} into Go struct field ${fieldName} of type ${goType}`,
  );
}

function object(v: unknown, goType: string, fieldName: string): Json | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw mismatch(v, goType, fieldName);
  return v;
}

function str(v: unknown, fieldName: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw mismatch(v, 'string', fieldName);
  return v;
}

function int(v: unknown, fieldName: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw mismatch(v, 'int64', fieldName);
  return v;
}

function stringList(v: unknown, fieldName: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw mismatch(v, '[]string', fieldName);
  return v.map((s) => str(s, fieldName));
}

function failedMap(v: unknown, fieldName: string): Map<string, string> {
  const o = object(v, 'v1.FailedNodesMap', fieldName);
  return new Map(Object.entries(o ?? {}).map(([k, s]) => [k, str(s, fieldName)]));
}

function root(v: unknown, goType: string): Json {
  if (!isObject(v))
    throw new DecodeError(`json: cannot unmarshal ${typeName(v)} into Go value of type ${goType}`);
  return v;
}

export function decodeFilterResult(v: unknown): FilterResult {
  const o = root(v, 'v1.ExtenderFilterResult');
  const nodeList = object(field(o, 'Nodes'), 'v1.NodeList', 'ExtenderFilterResult.Nodes');
  let nodeListNames: string[] | undefined;
  if (nodeList) {
    const items = field(nodeList, 'items');
    if (items !== undefined && items !== null && !Array.isArray(items))
      throw mismatch(items, '[]v1.Node', 'NodeList.items');
    nodeListNames = ((items as unknown[] | null | undefined) ?? []).map((n) => {
      const meta = isObject(n) ? field(n, 'metadata') : undefined;
      return isObject(meta) ? str(field(meta, 'name'), 'Node.metadata.name') : '';
    });
  }
  return {
    nodeNames: stringList(field(o, 'NodeNames'), 'ExtenderFilterResult.NodeNames'),
    nodeListNames,
    failedNodes: failedMap(field(o, 'FailedNodes'), 'ExtenderFilterResult.FailedNodes'),
    failedAndUnresolvableNodes: failedMap(
      field(o, 'FailedAndUnresolvableNodes'),
      'ExtenderFilterResult.FailedAndUnresolvableNodes',
    ),
    error: str(field(o, 'Error'), 'ExtenderFilterResult.Error'),
  };
}

export function decodeHostPriorityList(v: unknown): HostPriority[] {
  if (v === null) return [];
  if (!Array.isArray(v))
    throw new DecodeError(`json: cannot unmarshal ${typeName(v)} into Go value of type v1.HostPriorityList`);
  return v.map((e) => {
    const o = object(e, 'v1.HostPriority', 'HostPriorityList') ?? {};
    return {
      host: str(field(o, 'Host'), 'HostPriority.Host'),
      score: int(field(o, 'Score'), 'HostPriority.Score'),
    };
  });
}

export function decodeBindingResult(v: unknown): string {
  return str(field(root(v, 'v1.ExtenderBindingResult'), 'Error'), 'ExtenderBindingResult.Error');
}

/** Victims by node as UIDs, the only form an extender answers preemption with. */
export interface MetaVictims {
  readonly podUIDs: readonly string[];
  readonly numPDBViolations: number;
}

export function decodePreemptionResult(v: unknown): Map<string, MetaVictims> {
  const o = root(v, 'v1.ExtenderPreemptionResult');
  const byNode = object(
    field(o, 'NodeNameToMetaVictims'),
    'map[string]*v1.MetaVictims',
    'ExtenderPreemptionResult.NodeNameToMetaVictims',
  );
  const out = new Map<string, MetaVictims>();
  for (const [node, mv] of Object.entries(byNode ?? {})) {
    // A null entry reads as no victims, which the preemption code then refuses for that node.
    const m = object(mv, 'v1.MetaVictims', 'ExtenderPreemptionResult.NodeNameToMetaVictims') ?? {};
    const pods = field(m, 'Pods');
    if (pods !== undefined && pods !== null && !Array.isArray(pods))
      throw mismatch(pods, '[]*v1.MetaPod', 'MetaVictims.Pods');
    out.set(node, {
      podUIDs: ((pods as unknown[] | null | undefined) ?? []).map((p) =>
        str(isObject(p) ? field(p, 'UID') : undefined, 'MetaPod.UID'),
      ),
      numPDBViolations: int(field(m, 'NumPDBViolations'), 'MetaVictims.NumPDBViolations'),
    });
  }
  return out;
}
