/**
 * The subject → binding → role index RBAC decides from: built from the four watched copies
 * when first asked after a change (a change only marks it stale, so a burst of writes costs one
 * rebuild), never from the store. Until every copy has synced it holds nothing and says so.
 */
import { goQuote } from '@keel/apimachinery';
import type { UserInfo } from '../../authn/types.js';
import type { RbacSources } from './sources.js';
import type { PolicyRule, RoleBinding, RoleRef, Subject } from './types.js';

const SA_PREFIX = 'system:serviceaccount:';

/** One binding as a user reaches it, with the subject that matched (what the allow reason names). */
export interface BoundRole {
  readonly binding: RoleBinding;
  readonly subject: Subject;
  /** The subject's position in the binding: the first that applies is the one named. */
  readonly index: number;
  /** '' for a ClusterRoleBinding. */
  readonly namespace: string;
}

/** The rules behind a roleRef, or the error kube's resolver reports for it. */
export type RoleRules = { readonly rules: readonly PolicyRule[] } | { readonly error: string };

interface Snapshot {
  /** subject key → bindings, ClusterRoleBindings under namespace ''. */
  readonly bySubject: Map<string, Map<string, BoundRole[]>>;
  readonly roles: Map<string, readonly PolicyRule[]>;
  readonly clusterRoles: Map<string, readonly PolicyRule[]>;
}

function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return `u\0${s.name}`;
    case 'Group':
      return `g\0${s.name}`;
    case 'ServiceAccount': {
      // A RoleBinding's service account defaults to the binding's namespace.
      const ns = s.namespace || bindingNamespace;
      return ns ? `u\0${SA_PREFIX}${ns}:${s.name}` : undefined;
    }
    default:
      return undefined;
  }
}

function userKeys(user: UserInfo): string[] {
  return [`u\0${user.name}`, ...user.groups.map((g) => `g\0${g}`)];
}

const byName = (a: RoleBinding, b: RoleBinding) => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

export class RbacRuleIndex {
  private sources: RbacSources | undefined;
  private snapshot: Snapshot | undefined;
  private attached!: () => void;
  private readonly attachedOnce = new Promise<void>((resolve) => (this.attached = resolve));

  /** Feeds the index; until then (and until every source synced) it resolves nothing. */
  attach(sources: RbacSources): void {
    this.sources = sources;
    const stale = () => {
      this.snapshot = undefined;
    };
    for (const s of Object.values(sources) as RbacSources[keyof RbacSources][]) s.subscribe(stale);
    this.attached();
  }

  /** Resolves once the index is attached and every source has synced. */
  async waitForSync(): Promise<void> {
    await this.attachedOnce;
    const s = this.sources as RbacSources;
    await Promise.all(
      [s.roles, s.roleBindings, s.clusterRoles, s.clusterRoleBindings].map((x) => x.waitForSync()),
    );
  }

  hasSynced(): boolean {
    const s = this.sources;
    if (!s) return false;
    return (
      s.roles.hasSynced() &&
      s.roleBindings.hasSynced() &&
      s.clusterRoles.hasSynced() &&
      s.clusterRoleBindings.hasSynced()
    );
  }

  private current(): Snapshot | undefined {
    if (!this.hasSynced()) return undefined;
    return (this.snapshot ??= this.build());
  }

  private build(): Snapshot {
    const s = this.sources as RbacSources;
    const bySubject = new Map<string, Map<string, BoundRole[]>>();
    const add = (binding: RoleBinding, namespace: string) => {
      const seen = new Set<string>();
      for (const [index, subject] of (binding.subjects ?? []).entries()) {
        const key = subjectKey(subject, namespace);
        if (key === undefined || seen.has(key)) continue;
        seen.add(key);
        let perNs = bySubject.get(key);
        if (!perNs) bySubject.set(key, (perNs = new Map<string, BoundRole[]>()));
        let list = perNs.get(namespace);
        if (!list) perNs.set(namespace, (list = []));
        list.push({ binding, subject, index, namespace });
      }
    };
    for (const b of [...s.clusterRoleBindings.list()].sort(byName)) add(b, '');
    for (const b of [...s.roleBindings.list()].sort(byName)) add(b, b.metadata.namespace ?? '');
    const roles = new Map<string, readonly PolicyRule[]>();
    for (const r of s.roles.list())
      roles.set(`${r.metadata.namespace ?? ''}/${r.metadata.name ?? ''}`, r.rules ?? []);
    const clusterRoles = new Map<string, readonly PolicyRule[]>();
    for (const r of s.clusterRoles.list()) clusterRoles.set(r.metadata.name ?? '', r.rules ?? []);
    return { bySubject, roles, clusterRoles };
  }

  /**
   * The bindings that apply to the user: ClusterRoleBindings first, then the RoleBindings of
   * `namespace`, each in name order, each once; undefined before the sources synced.
   */
  bindingsFor(user: UserInfo, namespace: string): BoundRole[] | undefined {
    const snap = this.current();
    if (!snap) return undefined;
    const cluster: BoundRole[] = [];
    const local: BoundRole[] = [];
    for (const key of userKeys(user)) {
      const perNs = snap.bySubject.get(key);
      if (!perNs) continue;
      cluster.push(...(perNs.get('') ?? []));
      if (namespace !== '') local.push(...(perNs.get(namespace) ?? []));
    }
    return [...dedupe(cluster), ...dedupe(local)];
  }

  /** GetRoleReferenceRules: a Role of the binding's namespace or a ClusterRole. */
  roleRules(ref: RoleRef, bindingNamespace: string): RoleRules {
    const snap = this.current();
    if (!snap) return { rules: [] };
    if (ref.kind === 'Role') {
      const rules = snap.roles.get(`${bindingNamespace}/${ref.name}`);
      return rules ? { rules } : { error: `role.rbac.authorization.k8s.io ${goQuote(ref.name)} not found` };
    }
    if (ref.kind === 'ClusterRole') {
      const rules = snap.clusterRoles.get(ref.name);
      return rules
        ? { rules }
        : { error: `clusterrole.rbac.authorization.k8s.io ${goQuote(ref.name)} not found` };
    }
    return { error: `unsupported role reference kind: ${goQuote(ref.kind)}` };
  }
}

/**
 * A user matching a binding through several subjects (name and groups) reaches it once, named
 * by the first of them in the binding, as kube's appliesTo.
 */
function dedupe(list: BoundRole[]): BoundRole[] {
  if (list.length < 2) return list;
  const first = new Map<RoleBinding, BoundRole>();
  for (const b of list) {
    const seen = first.get(b.binding);
    if (!seen || b.index < seen.index) first.set(b.binding, b);
  }
  return [...first.values()].sort((x, y) => byName(x.binding, y.binding));
}
