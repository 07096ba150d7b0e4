import { tooManyRequests } from '@keel/apimachinery';
import type { AdmissionAttributes } from '../../attributes.js';
import type { AdmissionPlugin } from '../../plugin.js';
import type { Limit, LimitType } from './configuration.js';
import { BucketCache, TokenBucket } from './token-bucket.js';

export { parseEventRateLimitConfig } from './configuration.js';

interface EventLike {
  readonly source?: { readonly component?: string; readonly host?: string };
  readonly involvedObject?: {
    readonly kind?: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly uid?: string;
    readonly apiVersion?: string;
  };
}

/** Upstream's keys: one bucket for the server, else one per namespace, user, or source and object. */
function keyOf(type: LimitType, attrs: AdmissionAttributes): string {
  switch (type) {
    case 'Server':
      return '';
    case 'Namespace':
      return attrs.namespace;
    case 'User':
      return attrs.user.name;
    case 'SourceAndObject': {
      const e = (attrs.object ?? {}) as EventLike;
      const o = e.involvedObject ?? {};
      return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion]
        .map((s) => s ?? '')
        .join('');
    }
  }
}

/**
 * EventRateLimit: creates and updates of Events past a limit's rate answer 429 `Too many
 * requests: limit reached on type <T> for key <k>`. Every limit takes its token, so one refusal
 * still spends the others' (as upstream). Both Event APIs count: upstream matches only the core
 * group's kind, but events.k8s.io/v1 writes land in the same stored resource, and a limit that a
 * client escapes by choosing the other API protects nothing.
 */
export function eventRateLimit(limits: readonly Limit[], now: () => number = Date.now): AdmissionPlugin {
  const enforcers = limits.map((limit) => {
    const bucket = () => new TokenBucket(limit.qps, limit.burst, now);
    const server = limit.type === 'Server' ? bucket() : undefined;
    const cache = new BucketCache(limit.cacheSize, bucket);
    return { type: limit.type, take: (key: string) => (server ?? cache.get(key)).tryAccept() };
  });
  return {
    name: 'EventRateLimit',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    validate(attrs) {
      if (attrs.kind.kind !== 'Event' || (attrs.kind.group !== '' && attrs.kind.group !== 'events.k8s.io'))
        return;
      let refusal: Error | undefined;
      for (const e of enforcers) {
        const key = keyOf(e.type, attrs);
        if (!e.take(key)) refusal = tooManyRequests(`limit reached on type ${e.type} for key ${key}`);
      }
      if (refusal) throw refusal;
    },
  };
}
