import type { Attributes, Authorizer, Decision } from '@keel/auth';

/**
 * kube's path authorizer (--authorization-always-allow-paths): non-resource requests whose path
 * is listed, or starts with a listed prefix ending in `*`, are allowed; the leading slash is not
 * significant. Everything else is no opinion.
 */
export class AlwaysAllowPathsAuthorizer implements Authorizer {
  private readonly exact = new Set<string>();
  private readonly prefixes: string[] = [];

  constructor(paths: readonly string[]) {
    for (const raw of paths) {
      const p = raw.replace(/^\//, '');
      if (p.endsWith('*')) this.prefixes.push(p.slice(0, -1));
      else this.exact.add(p);
    }
  }

  authorize(attrs: Attributes): Promise<Decision> {
    if (attrs.isResourceRequest) return Promise.resolve({ decision: 'noOpinion', reason: '' });
    const p = attrs.path.replace(/^\//, '');
    const allowed = this.exact.has(p) || this.prefixes.some((prefix) => p.startsWith(prefix));
    return Promise.resolve({ decision: allowed ? 'allow' : 'noOpinion', reason: '' });
  }
}
