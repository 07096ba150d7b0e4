import type { FlagEffects } from '@keel/flags';
import { LOG_FLAG_EFFECTS } from '@keel/log';
import { METRICS_FLAG_EFFECTS } from '@keel/metrics';
import { SECURE_SERVING_FLAG_EFFECTS } from '@keel/serving';

/**
 * What every keel-scheduler flag does in Keel, which --help and docs/flags/scheduler.md print.
 * A flag that acts names the tests that set it and check its effect (test/flag-effects.test.ts
 * checks they exist and name the flag); one Keel lacks is refused at start-up unless left at its
 * default; one with nothing to act on says why. Adding a flag without an entry fails that test.
 */
export const schedulerFlagEffects: FlagEffects = {
  ...SECURE_SERVING_FLAG_EFFECTS,
  'http2-max-streams-per-connection': {
    acts: ['packages/serving/src/http2/http2.test.ts', 'apps/scheduler/test/secure-port.test.ts'],
  },
  ...LOG_FLAG_EFFECTS,
  ...METRICS_FLAG_EFFECTS,
  config: {
    acts: [
      'apps/scheduler/test/startup.test.ts',
      'apps/scheduler/test/cli.smoke.test.ts',
      'apps/scheduler/src/options/resolve.test.ts',
    ],
  },
  'write-config-to': {
    acts: [
      'apps/scheduler/test/cli.smoke.test.ts',
      'apps/scheduler/src/options/resolve.test.ts',
      'apps/scheduler/src/options/config-versions.test.ts',
    ],
  },
  master: { acts: ['apps/scheduler/test/startup.test.ts', 'apps/scheduler/src/runtime/connection.test.ts'] },
  'pod-max-in-unschedulable-pods-duration': {
    acts: [
      'apps/scheduler/src/runtime/scheduling-queue-config.test.ts',
      'apps/scheduler/src/queue/priority-queue.test.ts',
      'apps/scheduler/src/options/resolve.test.ts',
    ],
  },
  'cloudvendor-container-registry-config': {
    meaningless: 'the scheduler pulls no images and Keel has no cloud vendor code',
  },
  'bind-address': {
    acts: [
      'apps/scheduler/test/secure-port.test.ts',
      'packages/serving/src/secure-serving-options.test.ts',
      'packages/serving/src/secure-server.test.ts',
    ],
  },
  'secure-port': { acts: ['apps/scheduler/test/secure-port.test.ts'] },
  'cert-dir': {
    acts: [
      'apps/scheduler/test/secure-port.test.ts',
      'packages/serving/src/secure-server.test.ts',
      'packages/serving/src/tls/self-signed.test.ts',
    ],
  },
  'tls-cert-file': { acts: ['packages/serving/src/secure-server.test.ts'] },
  'tls-private-key-file': { acts: ['packages/serving/src/secure-server.test.ts'] },
  'tls-cipher-suites': { acts: ['packages/serving/src/tls/tls-options.test.ts'] },
  'tls-min-version': { acts: ['packages/serving/src/tls/tls-options.test.ts'] },
  'tls-sni-cert-key': {
    acts: ['packages/serving/src/tls/sni.test.ts', 'packages/serving/src/secure-server.test.ts'],
  },
  'permit-port-sharing': {
    acts: [
      'packages/serving/src/secure-server.test.ts',
      'packages/serving/src/secure-serving-options.test.ts',
    ],
  },
  'authentication-connection-config': {
    acts: ['apps/scheduler/test/delegated-auth.test.ts', 'apps/scheduler/test/delegated-auth-outage.test.ts'],
  },
  'authentication-skip-lookup': {
    acts: ['apps/scheduler/test/delegated-auth.test.ts', 'apps/scheduler/test/delegated-auth-outage.test.ts'],
  },
  'authentication-token-webhook-cache-ttl': { acts: ['apps/scheduler/test/delegated-auth-outage.test.ts'] },
  'authentication-tolerate-lookup-failure': { acts: ['apps/scheduler/test/delegated-auth-outage.test.ts'] },
  'client-ca-file': {
    acts: ['apps/scheduler/test/delegated-auth.test.ts', 'apps/scheduler/test/delegated-auth-outage.test.ts'],
  },
  'requestheader-client-ca-file': { acts: ['apps/scheduler/test/delegated-auth.test.ts'] },
  'requestheader-allowed-names': { acts: ['apps/scheduler/test/delegated-auth.test.ts'] },
  'requestheader-username-headers': {
    acts: [
      'apps/scheduler/test/production-command-line.test.ts',
      'packages/auth/src/options/delegating-options.test.ts',
      'packages/auth/src/authn/request-header.test.ts',
    ],
  },
  'requestheader-group-headers': {
    acts: [
      'apps/scheduler/test/production-command-line.test.ts',
      'packages/auth/src/options/delegating-options.test.ts',
      'packages/auth/src/authn/request-header.test.ts',
    ],
  },
  'requestheader-extra-headers-prefix': {
    acts: [
      'apps/scheduler/test/production-command-line.test.ts',
      'packages/auth/src/options/delegating-options.test.ts',
      'packages/auth/src/authn/request-header.test.ts',
    ],
  },
  'authorization-connection-config': {
    acts: ['apps/scheduler/test/delegated-auth.test.ts', 'apps/scheduler/test/delegated-auth-outage.test.ts'],
  },
  'authorization-webhook-cache-authorized-ttl': {
    acts: ['apps/scheduler/test/delegated-auth-outage.test.ts'],
  },
  'authorization-webhook-cache-unauthorized-ttl': {
    acts: ['apps/scheduler/test/delegated-auth-outage.test.ts'],
  },
  'authorization-always-allow-paths': {
    acts: [
      'apps/scheduler/test/secure-port.test.ts',
      'apps/scheduler/test/scheduling.test.ts',
      'apps/scheduler/src/server/always-allow-paths.test.ts',
    ],
  },
  'contention-profiling': { meaningless: 'Node.js has no lock-contention or blocking profile to record' },
  profiling: { acts: ['apps/scheduler/test/secure-port.test.ts'] },
  'platform-api-burst': {
    acts: [
      'apps/scheduler/src/runtime/connection.test.ts',
      'packages/client/src/rest-client.test.ts',
      'apps/scheduler/src/options/resolve.test.ts',
    ],
  },
  'platform-api-content-type': {
    refused: 'the scheduler has no protobuf codec and talks to the API server in JSON only',
  },
  'platform-api-qps': {
    acts: [
      'apps/scheduler/src/runtime/connection.test.ts',
      'packages/client/src/rest-client.test.ts',
      'apps/scheduler/src/options/resolve.test.ts',
    ],
  },
  'connection-config': {
    acts: [
      'apps/scheduler/test/startup.test.ts',
      'apps/scheduler/src/runtime/connection.test.ts',
      'apps/scheduler/test/scheduling.test.ts',
      'apps/scheduler/test/production-command-line.test.ts',
    ],
  },
  'lock-object-name': {
    acts: ['apps/scheduler/src/options/resolve.test.ts', 'apps/scheduler/test/cli.smoke.test.ts'],
  },
  'lock-object-namespace': { acts: ['apps/scheduler/src/options/resolve.test.ts'] },
  'leader-elect': {
    acts: ['apps/scheduler/test/leader-election.test.ts', 'apps/scheduler/test/scheduling.test.ts'],
  },
  'leader-elect-lease-duration': {
    acts: [
      'packages/testing/src/scheduler-cluster.ts',
      'test/faults/scheduler-leader-kill.test.ts',
      'apps/scheduler/test/leader-election.test.ts',
      'packages/leaderelection/src/elector.test.ts',
    ],
  },
  'leader-elect-renew-deadline': {
    acts: [
      'packages/testing/src/scheduler-cluster.ts',
      'test/faults/scheduler-leader-kill.test.ts',
      'apps/scheduler/test/leader-election.test.ts',
      'packages/leaderelection/src/elector.test.ts',
    ],
  },
  'leader-elect-retry-period': {
    acts: [
      'packages/testing/src/scheduler-cluster.ts',
      'test/faults/scheduler-leader-kill.test.ts',
      'apps/scheduler/test/leader-election.test.ts',
      'packages/leaderelection/src/elector.test.ts',
    ],
  },
  'leader-elect-resource-lock': { acts: ['apps/scheduler/test/leader-election.test.ts'] },
  'leader-elect-resource-name': { acts: ['apps/scheduler/test/leader-election.test.ts'] },
  'leader-elect-resource-namespace': {
    acts: ['apps/scheduler/src/options/resolve.test.ts', 'packages/leaderelection/src/locks.test.ts'],
  },
  'feature-gates': {
    acts: ['apps/scheduler/test/cli.smoke.test.ts', 'packages/featuregate/src/feature-options.test.ts'],
  },
  'disabled-metrics': {
    acts: ['apps/scheduler/test/secure-port.test.ts', 'packages/metrics/src/registry.test.ts'],
  },
  'allow-metric-labels': { acts: ['packages/metrics/src/registry.test.ts'] },
  v: { acts: ['apps/scheduler/test/cli.smoke.test.ts', 'packages/log/src/logger.test.ts'] },
  vmodule: { acts: ['packages/log/src/logger.test.ts', 'packages/log/src/vmodule.test.ts'] },
};
