import { Duration, flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { checkDurationNonNegative } from './checks.js';

/** How the scheduler authorizes callers of its HTTPS port by asking the API server. */
export interface DelegatingAuthorizationConfig {
  /** '' means no API server to ask: every request not allowed below is forbidden. */
  readonly remoteConnectionConfigFile: string;
  /** Exact paths, or prefixes ending in `*`, allowed without asking. */
  readonly alwaysAllowPaths: readonly string[];
  /** Groups allowed without asking (the API server would allow them anyway). */
  readonly alwaysAllowGroups: readonly string[];
  readonly allowCacheTTL: Duration;
  readonly denyCacheTTL: Duration;
}

/** The scheduler's 'Authorization' flags (k8s.io/apiserver DelegatingAuthorizationOptions). */
export class DelegatingAuthorizationOptions implements OptionsGroup<{
  delegatingAuthorization?: DelegatingAuthorizationConfig;
}> {
  remoteConnectionConfigFile = '';
  alwaysAllowPaths: readonly string[] = ['/healthz', '/readyz', '/livez'];
  allowCacheTTL = Duration.parse('10s');
  denyCacheTTL = Duration.parse('10s');

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Authorization');
    s.var(this, 'remoteConnectionConfigFile', {
      name: 'authorization-connection-config',
      type: t.string,
      usage:
        "connection-config file pointing at the 'core' API server with enough rights to create subject access reviews. " +
        'This is optional. If empty, all requests not skipped by authorization are forbidden.',
    });
    s.var(this, 'allowCacheTTL', {
      name: 'authorization-webhook-cache-authorized-ttl',
      type: t.duration,
      usage: "The duration to cache 'authorized' responses from the webhook authorizer.",
    });
    s.var(this, 'denyCacheTTL', {
      name: 'authorization-webhook-cache-unauthorized-ttl',
      type: t.duration,
      usage: "The duration to cache 'unauthorized' responses from the webhook authorizer.",
    });
    s.var(this, 'alwaysAllowPaths', {
      name: 'authorization-always-allow-paths',
      type: t.strings,
      usage:
        "A list of HTTP paths to skip during authorization, i.e. these are authorized without contacting the 'core' " +
        'API server. A trailing * matches every path with that prefix.',
    });
  }

  validate(): string[] {
    const errors: string[] = [];
    for (const p of this.alwaysAllowPaths) {
      if (!p.startsWith('/')) {
        errors.push(`--authorization-always-allow-paths ${JSON.stringify(p)} must start with '/'`);
      } else if (p.slice(0, -1).includes('*')) {
        errors.push(`--authorization-always-allow-paths ${JSON.stringify(p)}: only a trailing * is allowed`);
      }
    }
    errors.push(
      ...checkDurationNonNegative('authorization-webhook-cache-authorized-ttl', this.allowCacheTTL),
      ...checkDurationNonNegative('authorization-webhook-cache-unauthorized-ttl', this.denyCacheTTL),
    );
    return errors;
  }

  applyTo(config: { delegatingAuthorization?: DelegatingAuthorizationConfig }): void {
    config.delegatingAuthorization = {
      remoteConnectionConfigFile: this.remoteConnectionConfigFile,
      alwaysAllowPaths: [...this.alwaysAllowPaths],
      alwaysAllowGroups: ['system:masters'],
      allowCacheTTL: this.allowCacheTTL,
      denyCacheTTL: this.denyCacheTTL,
    };
  }
}
