import type { FlagEffects } from '@keel/flags';
import { LOG_FLAG_EFFECTS } from '@keel/log';
import { METRICS_FLAG_EFFECTS } from '@keel/metrics';
import { SECURE_SERVING_FLAG_EFFECTS } from '@keel/serving';

/**
 * What every keel-apiserver flag does in Keel, which --help and docs/flags/apiserver.md print.
 * A flag that acts names the tests that set it and check its effect (test/flag-effects.test.ts
 * checks they exist and name the flag); one Keel lacks is refused at start-up unless left at its
 * default; one with nothing to act on says why. Adding a flag without an entry fails that test.
 */
export const apiServerFlagEffects: FlagEffects = {
  ...SECURE_SERVING_FLAG_EFFECTS,
  'http2-max-streams-per-connection': {
    acts: ['packages/serving/src/http2/http2.test.ts', 'apps/apiserver/test/http2.test.ts'],
  },
  ...LOG_FLAG_EFFECTS,
  ...METRICS_FLAG_EFFECTS,
  'advertise-address': {
    acts: [
      'apps/apiserver/src/options/server-run-options.test.ts',
      'apps/apiserver/src/endpoints/discovery/handler.test.ts',
      'packages/serving/src/tls/self-signed.test.ts',
    ],
  },
  'external-hostname': { acts: ['apps/apiserver/src/options/server-run-options.test.ts'] },
  'cors-allowed-origins': { acts: ['apps/apiserver/test/filters.test.ts'] },
  'strict-transport-security-directives': { acts: ['apps/apiserver/test/filters.test.ts'] },
  'goaway-chance': {
    acts: ['apps/apiserver/test/goaway.test.ts', 'apps/apiserver/src/filters/goaway.test.ts'],
  },
  'livez-grace-period': {
    acts: ['apps/apiserver/test/store-outage.test.ts', 'packages/health/src/registries.test.ts'],
  },
  'shutdown-delay-duration': {
    acts: ['apps/apiserver/test/lifecycle.test.ts', 'test/faults/sigterm-under-load.test.ts'],
  },
  'shutdown-send-retry-after': {
    acts: [
      'apps/apiserver/test/lifecycle.test.ts',
      'packages/serving/src/drain.test.ts',
      'test/faults/sigterm-under-load.test.ts',
    ],
  },
  'identity-lease-duration-seconds': {
    acts: [
      'apps/apiserver/test/identity-lease.test.ts',
      'apps/apiserver/src/options/lifecycle-options.test.ts',
    ],
  },
  'identity-lease-renew-interval-seconds': {
    acts: [
      'apps/apiserver/test/identity-lease.test.ts',
      'apps/apiserver/src/options/lifecycle-options.test.ts',
    ],
  },
  workers: { acts: ['apps/apiserver/test/workers.test.ts', 'apps/apiserver/src/workers/options.test.ts'] },
  'max-requests-inflight': { acts: ['apps/apiserver/test/inflight.test.ts'] },
  'max-mutating-requests-inflight': { acts: ['apps/apiserver/test/inflight.test.ts'] },
  'request-timeout': { acts: ['apps/apiserver/test/filters.test.ts'] },
  'min-request-timeout': {
    acts: ['apps/apiserver/test/watch-timeout.test.ts', 'apps/apiserver/src/options/limits-options.test.ts'],
  },
  'max-connection-bytes-per-sec': { acts: ['apps/apiserver/test/watch-throttle.test.ts'] },
  'delete-collection-workers': { acts: ['apps/apiserver/src/options/registry-options.test.ts'] },
  'enable-garbage-collector': {
    acts: [
      'apps/apiserver/test/garbage-collector.test.ts',
      'apps/apiserver/test/garbage-collector-off.test.ts',
      'apps/apiserver/src/options/registry-options.test.ts',
    ],
  },
  'event-ttl': { acts: ['apps/apiserver/test/events-ttl.test.ts'] },
  'watch-cache': {
    acts: [
      'apps/apiserver/test/watch-cache.test.ts',
      'packages/storage/src/watch-cache/cached-list.test.ts',
      'packages/storage/src/watch-cache/cached-watch.test.ts',
    ],
  },
  'watch-cache-sizes': {
    acts: [
      'apps/apiserver/test/watch-cache.test.ts',
      'apps/apiserver/src/options/registry-options.test.ts',
      'packages/storage/src/watch-cache/cached-watch.test.ts',
      'packages/storage/src/watch-cache/event-window.test.ts',
    ],
  },
  'encryption-provider-config': {
    acts: ['apps/apiserver/test/encryption.test.ts', 'packages/storage/src/encryption/encryption.test.ts'],
  },
  'lease-reuse-duration-seconds': {
    meaningless: 'Redis keeps a TTL per key instead of shared leases, so there is no lease to reuse',
  },
  'storage-backend': {
    refused: 'Keel speaks only the store3 protocol, to Redis or its embedded store',
    accepts: ['store3'],
  },
  'storage-media-type': {
    acts: ['apps/apiserver/test/storage-media-type.test.ts', 'packages/storage/src/media/encoding-backend.test.ts'],
  },
  'store-cafile': {
    acts: ['packages/storage/src/store-options.test.ts', 'packages/storage/src/redis/redis-tls.test.ts'],
  },
  'store-certfile': {
    acts: ['packages/storage/src/store-options.test.ts', 'packages/storage/src/redis/redis-tls.test.ts'],
  },
  'store-compaction-interval': { acts: ['apps/apiserver/test/events-expired.test.ts'] },
  'store-count-metric-poll-period': { acts: ['apps/apiserver/test/metrics.test.ts'] },
  'store-db-metric-poll-interval': { acts: ['apps/apiserver/test/metrics.test.ts'] },
  'store-healthcheck-timeout': {
    acts: ['packages/storage/src/store-options.test.ts', 'packages/storage/src/redis/redis-failure.test.ts'],
  },
  'store-keyfile': {
    acts: ['packages/storage/src/store-options.test.ts', 'packages/storage/src/redis/redis-tls.test.ts'],
  },
  'store-prefix': {
    acts: [
      'apps/apiserver/test/events-redis-shared.test.ts',
      'apps/apiserver/test/rbac-redis-shared.test.ts',
      'apps/apiserver/test/quota-redis-shared.test.ts',
      'apps/apiserver/test/namespace-deletion-redis-shared.test.ts',
      'apps/apiserver/test/lifecycle.test.ts',
    ],
  },
  'store-readycheck-timeout': {
    acts: ['packages/storage/src/store-options.test.ts', 'packages/storage/src/redis/redis-failure.test.ts'],
  },
  'store-servers': {
    acts: [
      'apps/apiserver/test/store-outage.test.ts',
      'apps/apiserver/test/cli.smoke.test.ts',
      'test/faults/redis-cluster.test.ts',
    ],
  },
  'store-servers-overrides': {
    acts: ['apps/apiserver/test/store-overrides.test.ts', 'packages/storage/src/store-options.test.ts'],
  },
  'bind-address': {
    acts: [
      'apps/apiserver/test/cli.smoke.test.ts',
      'packages/serving/src/secure-serving-options.test.ts',
      'packages/serving/src/secure-server.test.ts',
    ],
  },
  'secure-port': {
    acts: [
      'apps/apiserver/test/cli.smoke.test.ts',
      'packages/serving/src/secure-serving-options.test.ts',
      'packages/serving/src/secure-server.test.ts',
    ],
  },
  'cert-dir': { acts: ['packages/serving/src/secure-server.test.ts'] },
  'tls-cert-file': {
    acts: ['packages/serving/src/secure-server.test.ts', 'apps/apiserver/test/cli.smoke.test.ts'],
  },
  'tls-private-key-file': {
    acts: ['packages/serving/src/secure-server.test.ts', 'apps/apiserver/test/cli.smoke.test.ts'],
  },
  'tls-cipher-suites': { acts: ['packages/serving/src/tls/tls-options.test.ts'] },
  'tls-min-version': { acts: ['packages/serving/src/tls/tls-options.test.ts'] },
  'tls-sni-cert-key': {
    acts: ['packages/serving/src/tls/sni.test.ts', 'packages/serving/src/secure-server.test.ts'],
  },
  'permit-port-sharing': { acts: ['packages/serving/src/secure-server.test.ts'] },
  'audit-policy-file': {
    acts: ['apps/apiserver/test/audit-log.test.ts', 'apps/apiserver/test/audit-webhook.test.ts'],
  },
  'audit-log-path': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-format': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-compress': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-maxage': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-maxbackup': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-maxsize': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-batch-buffer-size': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-log-batch-max-size': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-log-batch-max-wait': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-batch-throttle-burst': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-log-batch-throttle-enable': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-log-batch-throttle-qps': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-log-mode': { acts: ['apps/apiserver/test/audit-log.test.ts'] },
  'audit-log-truncate-enabled': {
    acts: ['apps/apiserver/test/audit-log.test.ts', 'apps/apiserver/test/audit-webhook.test.ts'],
  },
  'audit-log-truncate-max-batch-size': { acts: ['apps/apiserver/src/options/audit-options.test.ts'] },
  'audit-log-truncate-max-event-size': {
    acts: ['apps/apiserver/test/audit-log.test.ts', 'apps/apiserver/src/options/audit-options.test.ts'],
  },
  'audit-log-version': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/encode.test.ts'],
  },
  'audit-webhook-config-file': {
    acts: ['apps/apiserver/test/audit-webhook.test.ts', 'apps/apiserver/test/audit-log.test.ts'],
  },
  'audit-webhook-initial-backoff': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-batch-buffer-size': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-batch-max-size': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-batch-max-wait': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-batch-throttle-burst': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-webhook-batch-throttle-enable': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-webhook-batch-throttle-qps': {
    acts: ['apps/apiserver/src/options/audit-options.test.ts', 'packages/audit/src/sinks.test.ts'],
  },
  'audit-webhook-mode': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-truncate-enabled': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-truncate-max-batch-size': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-truncate-max-event-size': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'audit-webhook-version': { acts: ['apps/apiserver/test/audit-webhook.test.ts'] },
  'contention-profiling': { meaningless: 'Node.js has no lock-contention or blocking profile to record' },
  'enable-priority-and-fairness': {
    acts: ['apps/apiserver/test/priority-and-fairness.test.ts', 'apps/apiserver/test/inflight.test.ts'],
  },
  profiling: { acts: ['apps/apiserver/test/profiling.test.ts'] },
  'feature-gates': {
    acts: ['apps/apiserver/test/feature-gates.test.ts', 'packages/featuregate/src/feature-options.test.ts'],
  },
  'api-audiences': {
    acts: [
      'apps/apiserver/test/webhook-auth.test.ts',
      'packages/auth/src/options/service-account-options.test.ts',
    ],
  },
  'anonymous-auth': {
    acts: ['apps/apiserver/test/authn-authz.test.ts', 'packages/auth/src/authn/build.test.ts'],
  },
  'enable-bootstrap-token-auth': {
    acts: ['apps/apiserver/test/bootstrap-tokens.test.ts', 'packages/auth/src/authn/build.test.ts'],
  },
  'client-ca-file': {
    acts: [
      'apps/apiserver/test/authn-authz.test.ts',
      'apps/apiserver/test/configmaps-endpoints.test.ts',
      'packages/auth/src/authn/build.test.ts',
    ],
  },
  'oidc-issuer-url': {
    acts: ['apps/apiserver/test/oidc.test.ts', 'packages/auth/src/authn/oidc/oidc-authenticator.test.ts'],
  },
  'oidc-client-id': {
    acts: ['apps/apiserver/test/oidc.test.ts', 'packages/auth/src/authn/oidc/oidc-authenticator.test.ts'],
  },
  'oidc-ca-file': { acts: ['apps/apiserver/test/oidc.test.ts', 'apps/apiserver/test/authn-authz.test.ts'] },
  'oidc-username-claim': {
    acts: ['apps/apiserver/test/oidc.test.ts', 'packages/auth/src/authn/oidc/oidc-authenticator.test.ts'],
  },
  'oidc-username-prefix': { acts: ['packages/auth/src/authn/oidc/oidc-authenticator.test.ts'] },
  'oidc-groups-claim': {
    acts: ['apps/apiserver/test/oidc.test.ts', 'packages/auth/src/authn/oidc/oidc-authenticator.test.ts'],
  },
  'oidc-groups-prefix': { acts: ['apps/apiserver/test/oidc.test.ts'] },
  'oidc-required-claim': {
    acts: ['apps/apiserver/test/oidc.test.ts', 'packages/auth/src/authn/oidc/oidc-authenticator.test.ts'],
  },
  'oidc-signing-algs': {
    acts: ['packages/auth/src/authn/oidc/oidc-authenticator.test.ts', 'apps/apiserver/test/oidc.test.ts'],
  },
  'requestheader-client-ca-file': {
    acts: ['packages/auth/src/authn/build.test.ts', 'apps/apiserver/test/configmaps-endpoints.test.ts'],
  },
  'requestheader-allowed-names': {
    acts: ['packages/auth/src/authn/build.test.ts', 'apps/apiserver/test/configmaps-endpoints.test.ts'],
  },
  'requestheader-username-headers': {
    acts: ['packages/auth/src/authn/build.test.ts', 'apps/apiserver/test/configmaps-endpoints.test.ts'],
  },
  'requestheader-group-headers': {
    acts: ['packages/auth/src/authn/build.test.ts', 'apps/apiserver/test/configmaps-endpoints.test.ts'],
  },
  'requestheader-extra-headers-prefix': {
    acts: ['packages/auth/src/authn/build.test.ts', 'apps/apiserver/test/configmaps-endpoints.test.ts'],
  },
  'service-account-key-file': {
    acts: [
      'apps/apiserver/test/service-account-issuer.test.ts',
      'apps/apiserver/test/service-account-tokens.test.ts',
      'packages/auth/src/authn/build.test.ts',
    ],
  },
  'service-account-lookup': { acts: ['apps/apiserver/test/service-account-issuer.test.ts'] },
  'service-account-issuer': {
    acts: [
      'apps/apiserver/test/service-account-issuer.test.ts',
      'apps/apiserver/test/service-account-tokens.test.ts',
    ],
  },
  'service-account-jwks-uri': { acts: ['apps/apiserver/test/service-account-issuer.test.ts'] },
  'service-account-signing-key-file': {
    acts: [
      'apps/apiserver/test/service-account-tokens.test.ts',
      'apps/apiserver/test/service-account-issuer.test.ts',
      'apps/apiserver/test/clients-kubectl-token.test.ts',
    ],
  },
  'service-account-max-token-expiration': {
    acts: [
      'apps/apiserver/test/service-account-tokens.test.ts',
      'packages/auth/src/authn/build-issuer.test.ts',
    ],
  },
  'service-account-extend-token-expiration': {
    acts: [
      'apps/apiserver/test/service-account-tokens.test.ts',
      'packages/auth/src/options/service-account-options.test.ts',
    ],
  },
  'token-auth-file': {
    acts: ['apps/apiserver/test/authn-authz.test.ts', 'packages/auth/src/authn/build.test.ts'],
  },
  'authentication-token-webhook-config-file': {
    acts: ['apps/apiserver/test/webhook-auth.test.ts', 'apps/apiserver/test/authn-authz.test.ts'],
  },
  'authentication-token-webhook-version': { acts: ['apps/apiserver/test/webhook-auth.test.ts'] },
  'authentication-token-webhook-cache-ttl': { acts: ['apps/apiserver/test/webhook-auth.test.ts'] },
  'authorization-mode': {
    acts: [
      'apps/apiserver/test/authn-authz.test.ts',
      'apps/apiserver/test/rbac.test.ts',
      'apps/apiserver/test/abac.test.ts',
      'apps/apiserver/test/node-authorization.test.ts',
      'apps/apiserver/test/webhook-auth.test.ts',
    ],
  },
  'authorization-policy-file': {
    acts: ['apps/apiserver/test/abac.test.ts', 'apps/apiserver/test/self-reviews.test.ts'],
  },
  'authorization-webhook-config-file': { acts: ['apps/apiserver/test/webhook-auth.test.ts'] },
  'authorization-webhook-version': {
    acts: [
      'packages/auth/src/options/authorization-options.test.ts',
      'apps/apiserver/test/webhook-auth.test.ts',
      'packages/auth/src/authz/webhook/webhook-authorizer.test.ts',
    ],
  },
  'authorization-webhook-cache-authorized-ttl': { acts: ['apps/apiserver/test/webhook-auth.test.ts'] },
  'authorization-webhook-cache-unauthorized-ttl': { acts: ['apps/apiserver/test/webhook-auth.test.ts'] },
  'cloud-config': { meaningless: 'Keel has no cloud vendor code to configure' },
  'cloud-provider': {
    meaningless:
      'Keel has no built-in cloud vendor code; external is accepted and the in-tree names are refused',
  },
  'cloud-provider-vendor-l7lb-src-cidrs': {
    meaningless: 'Keel has no cloud vendor code and opens no firewall',
  },
  'cloudvendor-container-registry-config': {
    meaningless: 'Keel pulls no images and has no cloud vendor code',
  },
  'runtime-config': {
    acts: ['apps/apiserver/test/runtime-config.test.ts', 'apps/apiserver/test/self-reviews.test.ts'],
  },
  'egress-selector-config-file': {
    acts: ['apps/apiserver/test/egress-selector.test.ts', 'packages/egress/src/config.test.ts'],
  },
  'admission-control-config-file': {
    acts: [
      'apps/apiserver/test/admission-plugins.test.ts',
      'apps/apiserver/test/admission-image-policy.test.ts',
      'apps/apiserver/test/admission-pod-security.test.ts',
      'apps/apiserver/test/pod-admission.test.ts',
    ],
  },
  'disable-admission-plugins': {
    acts: [
      'apps/apiserver/test/events-crud.test.ts',
      'apps/apiserver/test/namespace-lifecycle.test.ts',
      'apps/apiserver/src/options/admission-options.test.ts',
    ],
  },
  'enable-admission-plugins': {
    acts: [
      'apps/apiserver/test/admission-plugins.test.ts',
      'apps/apiserver/test/pod-admission.test.ts',
      'apps/apiserver/test/namespace-lifecycle.test.ts',
      'apps/apiserver/test/node-authorization.test.ts',
      'apps/apiserver/test/admission-image-policy.test.ts',
    ],
  },
  'disabled-metrics': {
    acts: ['apps/apiserver/test/metrics.test.ts', 'packages/metrics/src/registry.test.ts'],
  },
  'allow-metric-labels': {
    acts: ['apps/apiserver/test/metrics.test.ts', 'packages/metrics/src/registry.test.ts'],
  },
  v: { acts: ['apps/apiserver/test/cli.smoke.test.ts', 'packages/log/src/logger.test.ts'] },
  vmodule: { acts: ['packages/log/src/logger.test.ts', 'packages/log/src/options.test.ts'] },
  'tracing-config-file': { acts: ['apps/apiserver/test/tracing.test.ts'] },
  'enable-aggregator-routing': {
    // Keel serves no APIService aggregation; the flag's other use, the service resolver of
    // admission webhooks named by a Service, acts.
    acts: ['apps/apiserver/test/admission-webhooks-service.test.ts'],
  },
  'endpoint-reconciler-type': { acts: ['apps/apiserver/test/services-redis-shared.test.ts'] },
  'master-service-namespace': { acts: ['apps/apiserver/test/services-redis-shared.test.ts'] },
  'platform-service-node-port': { acts: ['apps/apiserver/test/services.test.ts'] },
  'service-cluster-ip-range': {
    acts: ['apps/apiserver/test/services.test.ts', 'apps/apiserver/test/services-redis-shared.test.ts'],
  },
  'service-node-port-range': {
    acts: ['apps/apiserver/test/services.test.ts', 'apps/apiserver/test/services-redis-shared.test.ts'],
  },
  'allow-privileged': {
    acts: [
      'apps/apiserver/test/pod-admission.test.ts',
      'apps/apiserver/test/admission-pod-security.test.ts',
      'packages/coreapi/src/pod-privileged.test.ts',
    ],
  },
  'default-not-ready-toleration-seconds': { acts: ['apps/apiserver/test/pod-admission.test.ts'] },
  'default-unreachable-toleration-seconds': { acts: ['apps/apiserver/test/pod-admission.test.ts'] },
  'nodeagent-certificate-authority': {
    meaningless:
      'Keel serves no pod logs, exec, attach or port-forward, so it never connects to a node agent',
  },
  'nodeagent-client-certificate': {
    meaningless:
      'Keel serves no pod logs, exec, attach or port-forward, so it never connects to a node agent',
  },
  'nodeagent-client-key': {
    meaningless:
      'Keel serves no pod logs, exec, attach or port-forward, so it never connects to a node agent',
  },
  'nodeagent-preferred-address-types': {
    meaningless:
      'Keel serves no pod logs, exec, attach or port-forward, so it never connects to a node agent',
  },
  'nodeagent-timeout': {
    meaningless:
      'Keel serves no pod logs, exec, attach or port-forward, so it never connects to a node agent',
  },
  'proxy-client-cert-file': { acts: ['apps/apiserver/test/admission-webhooks.test.ts'] },
  'proxy-client-key-file': { acts: ['apps/apiserver/test/admission-webhooks.test.ts'] },
};
