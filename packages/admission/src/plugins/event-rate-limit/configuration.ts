import { ConfigFileError, parseConfig } from '@keel/config-file';
import { z } from 'zod';
import type { PluginConfig } from '../../configuration.js';

export const LIMIT_TYPES = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

export interface Limit {
  readonly type: LimitType;
  readonly qps: number;
  readonly burst: number;
  /** How many keys keep a bucket (least recently used go first); unused by Server. */
  readonly cacheSize: number;
}

/** Upstream's limit when a Namespace, User or SourceAndObject limit sets no cacheSize. */
const DEFAULT_CACHE_SIZE = 4096;

const INT32_MAX = 2 ** 31 - 1;
const int32 = z.number().int('expected an integer').max(INT32_MAX, `must be at most ${INT32_MAX}`);

const schema = z.strictObject({
  apiVersion: z.literal('eventratelimit.admission.k8s.io/v1alpha1'),
  kind: z.literal('Configuration'),
  limits: z
    .array(
      z.strictObject({
        type: z.enum(LIMIT_TYPES),
        qps: int32.positive('must be positive'),
        burst: int32.positive('must be positive'),
        cacheSize: int32.nonnegative('must not be negative').nullish(),
      }),
    )
    .min(1, 'must not be empty'),
});

/** The plugin's Configuration (eventratelimit.admission.k8s.io/v1alpha1); it cannot run without one. */
export function parseEventRateLimitConfig(config: PluginConfig | undefined): readonly Limit[] {
  if (!config)
    throw new ConfigFileError(
      'EventRateLimit needs a configuration: name it in --admission-control-config-file ' +
        '(an eventratelimit.admission.k8s.io/v1alpha1 Configuration with at least one limit)',
    );
  const parsed = parseConfig(schema, config.value, config.source);
  return parsed.limits.map((l) => ({
    type: l.type,
    qps: l.qps,
    burst: l.burst,
    cacheSize: l.cacheSize || DEFAULT_CACHE_SIZE,
  }));
}
