/**
 * Cluster-role aggregation, which the reference runs in its controller manager and Keel, having
 * none, runs in the API server: every ClusterRole with an aggregationRule gets as its rules the
 * union of the rules of the ClusterRoles its selectors pick. The result depends only on the stored
 * roles and is written only when it differs, so several API servers on one store agree.
 */
import { labelSelectorFromSpec } from '@keel/apimachinery';
import { rbac } from '@keel/auth';
import { isStorageError, StoreInformer, type Storage } from '@keel/storage';

type ClusterRole = rbac.ClusterRole;
type PolicyRule = rbac.PolicyRule;

/** Rounds of one pass; far more than any chain of aggregated roles needs. */
const MAX_ROUNDS = 16;

/** The reference compares rules semantically: a missing list and an empty one are the same. */
function ruleKey(r: PolicyRule): string {
  return JSON.stringify([
    r.verbs ?? [],
    r.apiGroups ?? [],
    r.resources ?? [],
    r.resourceNames ?? [],
    r.nonResourceURLs ?? [],
  ]);
}

export function sameRules(
  a: readonly PolicyRule[] | undefined,
  b: readonly PolicyRule[] | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => ruleKey(r) === ruleKey(y[i] as PolicyRule));
}

/**
 * The rules `role` aggregates from `all`, in the reference's order: selector by selector, the
 * matching roles by name (the role itself skipped), each rule once. An invalid selector makes the
 * role unaggregatable (undefined), as the reference's controller gives up on it.
 */
export function aggregatedRules(role: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] | undefined {
  const roles = [...all].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  const seen = new Set<string>();
  const rules: PolicyRule[] = [];
  for (const spec of role.aggregationRule?.clusterRoleSelectors ?? []) {
    let selector;
    try {
      selector = labelSelectorFromSpec(spec);
    } catch {
      return undefined;
    }
    for (const other of roles) {
      if (other.metadata.name === role.metadata.name || !selector.matches(other.metadata.labels ?? {}))
        continue;
      for (const r of other.rules ?? []) {
        const key = ruleKey(r);
        if (seen.has(key)) continue;
        seen.add(key);
        rules.push(r);
      }
    }
  }
  return rules;
}

export interface AggregationOptions {
  /** Told about a failed pass (retried after `retryDelayMs`); the store being down is no reason to crash. */
  readonly onError?: (err: unknown) => void;
  readonly retryDelayMs?: number;
}

/** Watches the ClusterRoles and keeps every aggregated one's rules current. */
export class ClusterRoleAggregationController {
  private readonly informer: StoreInformer<ClusterRole>;
  private running: Promise<void> | undefined;
  private again = false;
  private watching = false;
  private following = false;

  constructor(
    private readonly storage: Storage,
    private readonly opts: AggregationOptions = {},
  ) {
    this.informer = new StoreInformer<ClusterRole>(storage, rbac.RBAC_KEY_ROOTS.clusterroles, {
      ...(opts.onError ? { onError: opts.onError } : {}),
    });
  }

  /**
   * Starts watching (until `signal` aborts) and resolves once the roles as stored now are
   * aggregated; later changes are followed in the background. May be called again after it
   * failed (the store was down): the watch is started once.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (!this.watching) {
      this.watching = true;
      void this.informer.run(signal);
    }
    await this.informer.waitForSync();
    // The first pass reads the store itself: what the caller wrote before starting is in it.
    const { items } = await this.storage.list<ClusterRole>(rbac.RBAC_KEY_ROOTS.clusterroles);
    await this.pass(items);
    if (this.following) return;
    this.following = true;
    const stop = this.informer.subscribe(() => this.schedule(signal));
    signal.addEventListener('abort', stop, { once: true });
    // Changes between the list and the subscription.
    this.schedule(signal);
  }

  /** One pass at a time; changes during a pass cause exactly one more. */
  private schedule(signal: AbortSignal): void {
    if (signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.pass([...this.informer.list()]);
        } catch (err) {
          if (signal.aborted) return;
          this.opts.onError?.(err);
          await new Promise((resolve) => setTimeout(resolve, this.opts.retryDelayMs ?? 1000));
          this.again = true;
        }
      } while (this.again && !signal.aborted);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /**
   * Aggregates until nothing changes: an aggregated role may pick others (admin picks edit, edit
   * picks view), so each write feeds the next computation. Rules only grow while the roles stay
   * as they are, so this ends, cycles included.
   */
  private async pass(stored: ClusterRole[]): Promise<void> {
    const roles = new Map(stored.map((r) => [r.metadata.name ?? '', r]));
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let changed = false;
      for (const role of [...roles.values()]) {
        const written = await this.aggregate(role, roles.values());
        if (written) {
          roles.set(written.metadata.name ?? '', written);
          changed = true;
        }
      }
      if (!changed) return;
    }
  }

  /** Writes `role`'s aggregated rules if they differ; returns what was written. */
  private async aggregate(role: ClusterRole, all: Iterable<ClusterRole>): Promise<ClusterRole | undefined> {
    if (!role.aggregationRule) return undefined;
    const wanted = aggregatedRules(role, all);
    if (!wanted || sameRules(role.rules, wanted)) return undefined;
    try {
      return await this.storage.guaranteedUpdate<ClusterRole>(
        `${rbac.RBAC_KEY_ROOTS.clusterroles}/${role.metadata.name ?? ''}`,
        (stored) => {
          // Without ignoreNotFound the store calls this only with an object (else KeyNotFound, below).
          const current = stored as ClusterRole;
          // Changed selectors or a deleted role: the next pass sees the new state.
          if (JSON.stringify(current.aggregationRule) !== JSON.stringify(role.aggregationRule))
            return current;
          return sameRules(current.rules, wanted) ? current : { ...current, rules: wanted };
        },
      );
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound')) return undefined;
      throw err;
    }
  }
}
