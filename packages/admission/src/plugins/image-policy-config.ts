/**
 * ImagePolicyWebhook's configuration: `imagePolicy: {kubeConfigFile, allowTTL, denyTTL,
 * retryBackoff, defaultAllow}`, inline in the AdmissionConfiguration or in its own file. TTLs
 * are seconds, the backoff milliseconds; 0 takes the default and -1 turns the cache (or the
 * wait between retries) off, with kube's bounds otherwise.
 */
import { parseConfig } from '@keel/config-file';
import { z } from 'zod';
import type { PluginConfig } from '../configuration.js';

export interface ImagePolicyConfig {
  readonly kubeConfigFile: string;
  readonly allowTtlMs: number;
  readonly denyTtlMs: number;
  readonly retryBackoffMs: number;
  readonly defaultAllow: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** A whole number of milliseconds as Go prints a time.Duration (`30m0s`, `1.5s`, `500ms`). */
function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (Math.abs(ms) < SECOND) return `${ms}ms`;
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  const h = Math.floor(rest / (60 * MINUTE));
  rest -= h * 60 * MINUTE;
  const m = Math.floor(rest / MINUTE);
  rest -= m * MINUTE;
  const s = `${rest / SECOND}s`;
  if (h > 0) return `${sign}${h}h${m}m${s}`;
  if (m > 0) return `${sign}${m}m${s}`;
  return `${sign}${s}`;
}

/**
 * One of the durations: `value` in `unitMs`, 0 = default, -1 = off, otherwise within
 * (minMs, maxMs] as kube's normalizeConfigDuration demands.
 */
function duration(unitMs: number, minMs: number, maxMs: number, defaultMs: number, minText: string) {
  return z
    .number()
    .int()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === 0) return defaultMs;
      if (v === -1) return 0;
      const ms = v * unitMs;
      if (ms <= minMs || ms > maxMs) {
        ctx.addIssue({
          code: 'custom',
          message: `valid value is between ${minText} and ${goDuration(maxMs)}, got ${goDuration(ms)}`,
        });
        return z.NEVER;
      }
      return ms;
    });
}

const schema = z.strictObject({
  imagePolicy: z.strictObject({
    kubeConfigFile: z.string().min(1, 'required'),
    allowTTL: duration(SECOND, SECOND, 30 * MINUTE, 5 * MINUTE, '1s'),
    denyTTL: duration(SECOND, SECOND, 30 * MINUTE, 30 * SECOND, '1s'),
    // kube's lower bound is one nanosecond: any positive number of milliseconds.
    retryBackoff: duration(1, 0, 5 * MINUTE, 500, '1ns'),
    defaultAllow: z.boolean().optional(),
  }),
});

/** Validates the configuration; throws a ConfigFileError naming the file and field. */
export function parseImagePolicyConfig(config: PluginConfig): ImagePolicyConfig {
  const { imagePolicy: c } = parseConfig(schema, config.value, config.source);
  return {
    kubeConfigFile: c.kubeConfigFile,
    allowTtlMs: c.allowTTL,
    denyTtlMs: c.denyTTL,
    retryBackoffMs: c.retryBackoff,
    defaultAllow: c.defaultAllow ?? false,
  };
}
