import { inject } from 'vitest';
import type { TestApiServer } from '@keel/testing';

/** Every behaviour runs on both stores: the embedded memory store and the run's shared Redis. */
export const stores: readonly (readonly [string, string | undefined])[] = [
  ['memory', undefined],
  ['redis', inject('redisUrl')],
];

export const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';

/** A valid events.k8s.io/v1 Event. */
export function eventBody(name: string, namespace = 'default'): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace },
    eventTime: '2024-05-01T10:00:00.000000Z',
    action: 'Tested',
    reason: 'E2E',
    note: 'written by the end-to-end suite',
    type: 'Normal',
    reportingController: 'keel.test/e2e',
    reportingInstance: 'e2e-1',
    // Outside "default" an event must be about an object of its own namespace.
    regarding: { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace },
  };
}

/** The exact Status body of a failure, as the server serializes it (trailing newline included). */
export function statusText(
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): string {
  return (
    JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason,
      ...(details ? { details } : {}),
      code,
    }) + '\n'
  );
}

export const UNAUTHORIZED = statusText(401, 'Unauthorized', 'Unauthorized');

/** Creates an event as admin and returns its status. */
export async function createEvent(server: TestApiServer, name: string): Promise<number> {
  return (await server.request('POST', EVENTS, { body: eventBody(name) })).status;
}

/**
 * The check names of the spec's readiness output, in its order (`shutdown` last, readyz only).
 * /livez and /healthz list the same names without `shutdown`. With --authorization-mode RBAC,
 * `poststarthook/rbac/bootstrap-roles` and `.../start-clusterrole-aggregation-controller` follow
 * `poststarthook/bootstrap-controller`. The garbage collector's hook is Keel's own (the reference
 * runs the collector in its controller manager). Priority and fairness (on by default) adds its
 * three hooks, which the spec's list (taken from a server without it) does not show.
 */
export const READYZ_CHECKS = [
  'ping',
  'log',
  'store',
  'poststarthook/start-platform-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/priority-and-fairness-config-consumer',
  'poststarthook/priority-and-fairness-filter',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/bootstrap-controller',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/apiserver/bootstrap-system-flowcontrol-configuration',
  'poststarthook/start-cluster-authentication-info-controller',
  'poststarthook/start-platform-apiserver-identity-lease-controller',
  'poststarthook/start-platform-apiserver-identity-lease-garbage-collector',
  'poststarthook/start-garbage-collector-controller',
  'poststarthook/start-platform-aggregator-informers',
  'poststarthook/apiservice-registration-controller',
  'poststarthook/apiservice-status-available-controller',
  'poststarthook/platform-apiserver-autoregistration',
  'autoregister-completion',
  'poststarthook/apiservice-openapi-controller',
  'shutdown',
] as const;

export const LIVEZ_CHECKS = READYZ_CHECKS.filter((c) => c !== 'shutdown');

/** The verbose body listing `checks`, each `ok` unless `lines` overrides it, then the root's last line. */
export function verboseBody(
  root: 'healthz' | 'livez' | 'readyz',
  checks: readonly string[],
  lines: Record<string, string> = {},
  trailer: readonly string[] = [],
): string {
  const failed = Object.values(lines).some((l) => l.startsWith('[-]'));
  const body = checks.map((c) => lines[c] ?? `[+]${c} ok`);
  return [...body, ...trailer, `${root} check ${failed ? 'failed' : 'passed'}`, ''].join('\n');
}
