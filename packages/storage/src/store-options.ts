import {
  Duration,
  checkPaired,
  checkPositive,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
} from '@keel/flags';
import { checkStoreUrl, checkStoreUrlSet, isTlsUrl, parseServersOverride } from './store-servers.js';

export const STORAGE_MEDIA_TYPES = [
  'application/json',
  'application/yaml',
  'application/vnd.platform.protobuf',
] as const;
export type StorageMediaType = (typeof STORAGE_MEDIA_TYPES)[number];

/** The spec's "store v3"; like kube-apiserver's 'etcd3', the only backend and also what '' means. */
export const STORAGE_BACKEND = 'store3';

export interface StoreTls {
  readonly caFile: string | undefined;
  readonly certFile: string | undefined;
  readonly keyFile: string | undefined;
}

export interface RedisBackend {
  readonly kind: 'redis';
  readonly urls: readonly string[];
  /** Several URLs are the seed nodes of a Redis Cluster. */
  readonly cluster: boolean;
  /** Present for rediss:// servers. */
  readonly tls: StoreTls | undefined;
}

/** No --store-servers means the embedded in-memory store: state lives and dies with the process. */
export type StoreBackend = { readonly kind: 'memory' } | RedisBackend;

export interface StoreOverride {
  /** '' is the core group. */
  readonly group: string;
  readonly resource: string;
  readonly backend: RedisBackend;
}

export interface StoreConfig {
  readonly backend: StoreBackend;
  /** Resources kept on other servers than the rest. */
  readonly overrides: readonly StoreOverride[];
  readonly prefix: string;
  readonly compactionInterval: Duration;
  readonly countMetricPollPeriod: Duration;
  readonly dbMetricPollInterval: Duration;
  readonly mediaType: StorageMediaType;
  readonly encryptionProviderConfig: string | undefined;
  readonly healthcheckTimeout: Duration;
  readonly readycheckTimeout: Duration;
  readonly leaseReuseDurationSeconds: number;
}

function nonNegative(flag: string, d: Duration): string[] {
  return d.nanoseconds < 0n ? [`--${flag} must not be negative, got ${d.toString()}`] : [];
}

function positive(flag: string, d: Duration): string[] {
  return d.nanoseconds <= 0n ? [`--${flag} must be greater than 0, got ${d.toString()}`] : [];
}

function unlessEmpty(v: string): string | undefined {
  return v === '' ? undefined : v;
}

const OVERRIDE_FORM =
  'must have the form group/resource#servers, where servers are URLs, semicolon separated';

export class StoreOptions implements OptionsGroup<{ store?: StoreConfig }> {
  storeServers: readonly string[] = [];
  storeServersOverrides: readonly string[] = [];
  storeCafile = '';
  storeCertfile = '';
  storeKeyfile = '';
  storePrefix = '/registry';
  storeCompactionInterval = Duration.parse('5m');
  storeCountMetricPollPeriod = Duration.parse('1m');
  storeDbMetricPollInterval = Duration.parse('30s');
  storageBackend = STORAGE_BACKEND;
  // Keel's default differs from upstream's (protobuf): in Node, V8's JSON is several times cheaper
  // than protobufjs, so protobuf storage costs every write and uncached read (see the usage text).
  storageMediaType: StorageMediaType = 'application/json';
  encryptionProviderConfig = '';
  storeHealthcheckTimeout = Duration.parse('2s');
  storeReadycheckTimeout = Duration.parse('2s');
  leaseReuseDurationSeconds = 60;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Store');
    s.var(this, 'encryptionProviderConfig', {
      name: 'encryption-provider-config',
      type: t.string,
      usage:
        'The file containing configuration for encryption providers to be used for storing secrets in the store. ' +
        'Not supported by Keel yet: setting it fails start-up rather than store secrets unencrypted against the intent.',
    });
    s.var(this, 'leaseReuseDurationSeconds', {
      name: 'lease-reuse-duration-seconds',
      type: t.int,
      usage:
        'The time in seconds that each lease is reused. A lower value could avoid large number of objects reusing ' +
        'the same lease. Notice that a too small value may cause performance problems at storage layer.',
    });
    s.var(this, 'storageBackend', {
      name: 'storage-backend',
      type: t.string,
      usage: `The storage backend for persistence. Options: '${STORAGE_BACKEND}' (default).`,
    });
    s.var(this, 'storageMediaType', {
      name: 'storage-media-type',
      type: t.enumOf(STORAGE_MEDIA_TYPES),
      usage:
        'The media type to use to store objects in storage. Some resources or storage backends may only support a ' +
        `specific media type and will ignore this setting. Supported media types: [${STORAGE_MEDIA_TYPES.join(', ')}]. ` +
        'In Keel it chooses how Redis stores objects (protobuf, as upstream in etcd, for kinds that have a protobuf message; ' +
        'JSON otherwise, and for application/json and application/yaml); every server reads both. ' +
        "Keel's default is application/json, not upstream's protobuf: in Node a Pod create with protobuf storage costs " +
        'about 4x the API server CPU and a list read from Redis about 3-6x (pnpm bench protobuf-pods); protobuf roughly ' +
        'halves the memory Redis needs. The embedded store keeps objects in memory, where it has no effect.',
    });
    s.var(this, 'storeCafile', {
      name: 'store-cafile',
      type: t.string,
      usage: 'SSL Certificate Authority file used to secure store communication (rediss:// servers).',
    });
    s.var(this, 'storeCertfile', {
      name: 'store-certfile',
      type: t.string,
      usage: 'SSL certification file used to secure store communication (rediss:// servers).',
    });
    s.var(this, 'storeCompactionInterval', {
      name: 'store-compaction-interval',
      type: t.duration,
      usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
    });
    s.var(this, 'storeCountMetricPollPeriod', {
      name: 'store-count-metric-poll-period',
      type: t.duration,
      usage:
        'Frequency of polling the store for number of resources per type. 0 disables the metric collection.',
    });
    s.var(this, 'storeDbMetricPollInterval', {
      name: 'store-db-metric-poll-interval',
      type: t.duration,
      usage:
        'The interval of requests to poll the store and update the database size metric. 0 disables the metric collection.',
    });
    s.var(this, 'storeHealthcheckTimeout', {
      name: 'store-healthcheck-timeout',
      type: t.duration,
      usage: 'The timeout to use when checking store health.',
    });
    s.var(this, 'storeKeyfile', {
      name: 'store-keyfile',
      type: t.string,
      usage: 'SSL key file used to secure store communication (rediss:// servers).',
    });
    s.var(this, 'storePrefix', {
      name: 'store-prefix',
      type: t.string,
      usage: 'The prefix to prepend to all resource paths in the store.',
    });
    s.var(this, 'storeReadycheckTimeout', {
      name: 'store-readycheck-timeout',
      type: t.duration,
      usage: 'The timeout to use when checking store readiness.',
    });
    s.var(this, 'storeServers', {
      name: 'store-servers',
      type: t.strings,
      usage:
        'List of store servers to connect with (redis://host:port, or rediss://host:port for TLS), comma separated. ' +
        'Several servers are the seed nodes of a Redis Cluster, as is one server that reports cluster_enabled:1 at start-up; ' +
        'on a Cluster each resource gets its own hash tag and resourceVersion sequence. ' +
        'If empty, objects are kept in memory and lost on exit.',
    });
    s.var(this, 'storeServersOverrides', {
      name: 'store-servers-overrides',
      type: t.strings,
      usage:
        'Per-resource store servers overrides, comma separated. The individual override format: ' +
        'group/resource#servers, where servers are URLs, semicolon separated. Note that this applies only to ' +
        'resources compiled into this server binary. Not supported by Keel yet: setting it fails start-up, since ' +
        'every resource would still be kept on --store-servers.',
    });
  }

  validate(): string[] {
    const errors: string[] = [];
    const servers = this.storeServers;
    const serverErrors = servers.flatMap((u) => checkStoreUrl('store-servers', u));
    errors.push(...serverErrors);
    if (serverErrors.length === 0) errors.push(...checkStoreUrlSet('store-servers', servers));

    const overrideUrls: string[] = [];
    for (const text of this.storeServersOverrides) {
      const o = parseServersOverride(text);
      if (!o) {
        errors.push(`--store-servers-overrides ${JSON.stringify(text)} ${OVERRIDE_FORM}`);
        continue;
      }
      const urlErrors = o.urls.flatMap((u) => checkStoreUrl('store-servers-overrides', u));
      errors.push(
        ...(urlErrors.length > 0 ? urlErrors : checkStoreUrlSet('store-servers-overrides', o.urls)),
      );
      overrideUrls.push(...o.urls);
    }

    errors.push(...checkPaired(['store-certfile', this.storeCertfile], ['store-keyfile', this.storeKeyfile]));
    // TLS files with no TLS server to use them on are a mistake, not a harmless extra.
    if (![...servers, ...overrideUrls].some(isTlsUrl)) {
      for (const [flag, value] of [
        ['store-cafile', this.storeCafile],
        ['store-certfile', this.storeCertfile],
        ['store-keyfile', this.storeKeyfile],
      ] as const) {
        if (value !== '') errors.push(`--${flag} requires rediss:// servers`);
      }
    }

    if (!this.storePrefix.startsWith('/')) {
      errors.push(`--store-prefix ${JSON.stringify(this.storePrefix)} must start with "/"`);
    }
    errors.push(
      ...nonNegative('store-compaction-interval', this.storeCompactionInterval),
      ...nonNegative('store-count-metric-poll-period', this.storeCountMetricPollPeriod),
      ...nonNegative('store-db-metric-poll-interval', this.storeDbMetricPollInterval),
      ...positive('store-healthcheck-timeout', this.storeHealthcheckTimeout),
      ...positive('store-readycheck-timeout', this.storeReadycheckTimeout),
      ...checkPositive('lease-reuse-duration-seconds', this.leaseReuseDurationSeconds),
    );
    return errors;
  }

  private redis(urls: readonly string[]): RedisBackend {
    const tls = urls.some(isTlsUrl)
      ? {
          caFile: unlessEmpty(this.storeCafile),
          certFile: unlessEmpty(this.storeCertfile),
          keyFile: unlessEmpty(this.storeKeyfile),
        }
      : undefined;
    return { kind: 'redis', urls, cluster: urls.length > 1, tls };
  }

  applyTo(config: { store?: StoreConfig }): void {
    const overrides = this.storeServersOverrides.flatMap((text) => {
      const o = parseServersOverride(text);
      return o ? [{ group: o.group, resource: o.resource, backend: this.redis(o.urls) }] : [];
    });
    config.store = {
      backend: this.storeServers.length === 0 ? { kind: 'memory' } : this.redis(this.storeServers),
      overrides,
      prefix: this.storePrefix,
      compactionInterval: this.storeCompactionInterval,
      countMetricPollPeriod: this.storeCountMetricPollPeriod,
      dbMetricPollInterval: this.storeDbMetricPollInterval,
      mediaType: this.storageMediaType,
      encryptionProviderConfig: unlessEmpty(this.encryptionProviderConfig),
      healthcheckTimeout: this.storeHealthcheckTimeout,
      readycheckTimeout: this.storeReadycheckTimeout,
      leaseReuseDurationSeconds: this.leaseReuseDurationSeconds,
    };
  }
}
