/** A quota's scopes as selector requirements (getScopeSelectorsFromQuota). */
export interface ScopeRequirement {
  readonly scopeName: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

export interface QuotaLike {
  metadata: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: {
    hard?: Record<string, string>;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: ScopeRequirement[] };
  };
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

/** spec.scopes (each as `Exists`), then spec.scopeSelector's expressions. */
export function scopeSelectorsOf(q: QuotaLike): ScopeRequirement[] {
  return [
    ...(q.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(q.spec?.scopeSelector?.matchExpressions ?? []),
  ];
}

/** Go's %v of a []ScopedResourceSelectorRequirement: `[{PriorityClass In [a b]}]`. */
export function formatScopes(scopes: readonly ScopeRequirement[]): string {
  return `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`).join(' ')}]`;
}
