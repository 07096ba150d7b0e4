import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { StoreOptions, type StoreConfig } from './index.js';

function setup(argv: string[]) {
  const o = new StoreOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { store?: StoreConfig } = {};
    o.applyTo(config);
    if (!config.store) throw new Error('applyTo wrote no store slice');
    return config.store;
  };
  return { o, fss, parsed, slice };
}

/** Durations as Go prints them, so slices compare as plain data. */
function plain(s: StoreConfig) {
  return {
    ...s,
    compactionInterval: s.compactionInterval.toString(),
    countMetricPollPeriod: s.countMetricPollPeriod.toString(),
    dbMetricPollInterval: s.dbMetricPollInterval.toString(),
    healthcheckTimeout: s.healthcheckTimeout.toString(),
    readycheckTimeout: s.readycheckTimeout.toString(),
  };
}

describe('StoreOptions flags', () => {
  it('registers its flags in the Store section with the spec defaults', () => {
    const { fss } = setup([]);
    expect(fss.flagsIn('Store').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['encryption-provider-config', 'string', ''],
      ['lease-reuse-duration-seconds', 'int', '60'],
      ['storage-backend', 'string', '"store3"'],
      ['storage-media-type', 'string', '"application/json"'],
      ['store-cafile', 'string', ''],
      ['store-certfile', 'string', ''],
      ['store-compaction-interval', 'duration', '5m0s'],
      ['store-count-metric-poll-period', 'duration', '1m0s'],
      ['store-db-metric-poll-interval', 'duration', '30s'],
      ['store-healthcheck-timeout', 'duration', '2s'],
      ['store-keyfile', 'string', ''],
      ['store-prefix', 'string', '"/registry"'],
      ['store-readycheck-timeout', 'duration', '2s'],
      ['store-servers', 'strings', ''],
      ['store-servers-overrides', 'strings', ''],
    ]);
  });

  it('rejects an unknown media type at parse time', () => {
    expect(setup(['--storage-media-type=application/xml']).parsed.errors).toEqual([
      'invalid argument "application/xml" for "--storage-media-type" flag: must be one of "application/json", "application/yaml", "application/vnd.platform.protobuf"',
    ]);
  });
});

describe('StoreOptions slice', () => {
  it('defaults to the in-memory store', () => {
    const { o, slice } = setup([]);
    expect(o.validate()).toEqual([]);
    expect(plain(slice())).toEqual({
      backend: { kind: 'memory' },
      overrides: [],
      prefix: '/registry',
      compactionInterval: '5m0s',
      countMetricPollPeriod: '1m0s',
      dbMetricPollInterval: '30s',
      mediaType: 'application/json',
      encryptionProviderConfig: undefined,
      healthcheckTimeout: '2s',
      readycheckTimeout: '2s',
      leaseReuseDurationSeconds: 60,
    });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--encryption-provider-config=/etc/enc.yaml',
      '--lease-reuse-duration-seconds=30',
      '--storage-backend=store3',
      '--storage-media-type=application/vnd.platform.protobuf',
      '--store-cafile=/pki/ca.crt',
      '--store-certfile=/pki/c.crt',
      '--store-keyfile=/pki/c.key',
      '--store-compaction-interval=0',
      '--store-count-metric-poll-period=0s',
      '--store-db-metric-poll-interval=1m',
      '--store-healthcheck-timeout=3s',
      '--store-readycheck-timeout=500ms',
      '--store-prefix=/keel',
      '--store-servers=rediss://a:6379,rediss://b:6379',
      '--store-servers=rediss://c:6379',
      '--store-servers-overrides=/events#redis://ev:6379/3,coordination.k8s.io/leases#rediss://l1;rediss://l2',
    ]);
    expect(parsed.errors).toEqual([]);
    // Well formed; the API server's flag table refuses both (apps/apiserver/src/flag-effects.ts).
    expect(o.validate()).toEqual([]);
    const tls = { caFile: '/pki/ca.crt', certFile: '/pki/c.crt', keyFile: '/pki/c.key' };
    expect(plain(slice())).toEqual({
      backend: {
        kind: 'redis',
        urls: ['rediss://a:6379', 'rediss://b:6379', 'rediss://c:6379'],
        cluster: true,
        tls,
      },
      overrides: [
        {
          group: '',
          resource: 'events',
          backend: { kind: 'redis', urls: ['redis://ev:6379/3'], cluster: false, tls: undefined },
        },
        {
          group: 'coordination.k8s.io',
          resource: 'leases',
          backend: { kind: 'redis', urls: ['rediss://l1', 'rediss://l2'], cluster: true, tls },
        },
      ],
      prefix: '/keel',
      compactionInterval: '0s',
      countMetricPollPeriod: '0s',
      dbMetricPollInterval: '1m0s',
      mediaType: 'application/vnd.platform.protobuf',
      encryptionProviderConfig: '/etc/enc.yaml',
      healthcheckTimeout: '3s',
      readycheckTimeout: '500ms',
      leaseReuseDurationSeconds: 30,
    });
  });

  it.each([
    [
      ['--store-servers=redis://localhost:6379'],
      { kind: 'redis', urls: ['redis://localhost:6379'], cluster: false, tls: undefined },
    ],
    [
      ['--store-servers=rediss://user:secret@db.internal:6380/2'],
      {
        kind: 'redis',
        urls: ['rediss://user:secret@db.internal:6380/2'],
        cluster: false,
        tls: { caFile: undefined, certFile: undefined, keyFile: undefined },
      },
    ],
  ])('backend for %j', (argv, backend) => {
    const { o, slice } = setup(argv);
    expect(o.validate()).toEqual([]);
    expect(slice().backend).toEqual(backend);
  });
});

describe('StoreOptions.validate', () => {
  it.each([
    [['--storage-backend='], []],
    [
      ['--store-servers=localhost:6379,http://h:1,redis://,redis://h/x/y,redis://[::1'],
      [
        '--store-servers "localhost:6379" is not a URL; expected redis://host:port or rediss://host:port',
        '--store-servers "http://h:1" has scheme http://; expected redis:// or rediss://',
        '--store-servers "redis://" has no host',
        '--store-servers "redis://h/x/y" has path "/x/y"; only a database number may follow the host',
        '--store-servers "redis://[::1" is not a URL; expected redis://host:port or rediss://host:port',
      ],
    ],
    [
      ['--store-servers=h1'],
      ['--store-servers "h1" is not a URL; expected redis://host:port or rediss://host:port'],
    ],
    [
      ['--store-servers=redis://a,rediss://b', '--store-cafile=/ca'],
      ['--store-servers mixes redis:// and rediss:// servers; use one scheme for all of them'],
    ],
    [
      ['--store-servers=redis://a/1,redis://b'],
      ['--store-servers "redis://a/1" selects a database, but a Redis Cluster has only database 0'],
    ],
    [['--store-servers=redis://a/0,redis://b/'], []],
    [
      ['--store-servers-overrides=events,a/b/c#redis://x,/events#,apps/#redis://x,/pods#http://x'],
      [
        '--store-servers-overrides "events" must have the form group/resource#servers, where servers are URLs, semicolon separated',
        '--store-servers-overrides "a/b/c#redis://x" must have the form group/resource#servers, where servers are URLs, semicolon separated',
        '--store-servers-overrides "/events#" must have the form group/resource#servers, where servers are URLs, semicolon separated',
        '--store-servers-overrides "apps/#redis://x" must have the form group/resource#servers, where servers are URLs, semicolon separated',
        '--store-servers-overrides "http://x" has scheme http://; expected redis:// or rediss://',
      ],
    ],
    [
      ['--store-servers-overrides=/events#redis://a;rediss://b'],
      ['--store-servers-overrides mixes redis:// and rediss:// servers; use one scheme for all of them'],
    ],
    [
      ['--store-certfile=/c'],
      [
        '--store-keyfile is required when --store-certfile is set',
        '--store-certfile requires rediss:// servers',
      ],
    ],
    [
      ['--store-servers=redis://a', '--store-cafile=/ca', '--store-certfile=/c', '--store-keyfile=/k'],
      [
        '--store-cafile requires rediss:// servers',
        '--store-certfile requires rediss:// servers',
        '--store-keyfile requires rediss:// servers',
      ],
    ],
    // TLS files are for any rediss:// server, the overrides' included.
    [['--store-servers-overrides=/events#rediss://ev', '--store-cafile=/ca'], []],
    [['--store-prefix=registry'], ['--store-prefix "registry" must start with "/"']],
    [['--store-prefix='], ['--store-prefix "" must start with "/"']],
    [
      [
        '--store-compaction-interval=-1s',
        '--store-count-metric-poll-period=-1m',
        '--store-db-metric-poll-interval=-1ms',
      ],
      [
        '--store-compaction-interval must not be negative, got -1s',
        '--store-count-metric-poll-period must not be negative, got -1m0s',
        '--store-db-metric-poll-interval must not be negative, got -1ms',
      ],
    ],
    [
      ['--store-healthcheck-timeout=0', '--store-readycheck-timeout=-2s', '--lease-reuse-duration-seconds=0'],
      [
        '--store-healthcheck-timeout must be greater than 0, got 0s',
        '--store-readycheck-timeout must be greater than 0, got -2s',
        '--lease-reuse-duration-seconds must be greater than 0, got 0',
      ],
    ],
  ])('%j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
