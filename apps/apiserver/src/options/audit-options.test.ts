import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { AuditOptions, type AuditConfig } from './audit-options.js';

function setup(argv: string[]) {
  const o = new AuditOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { audit?: AuditConfig } = {};
    o.applyTo(config);
    if (!config.audit) throw new Error('applyTo wrote no audit slice');
    return config.audit;
  };
  return { o, fss, parsed, slice };
}

/** The spec's suffix table: [suffix, type, log default, webhook default] as --help shows them. */
const SUFFIXES: [string, string, string, string][] = [
  ['batch-buffer-size', 'int', '10000', '10000'],
  ['batch-max-size', 'int', '1', '400'],
  ['batch-max-wait', 'duration', '', '30s'],
  ['batch-throttle-burst', 'int', '', '15'],
  ['batch-throttle-enable', '', '', 'true'],
  ['batch-throttle-qps', 'float', '', '10'],
  ['mode', 'string', '"blocking"', '"batch"'],
  ['truncate-enabled', '', '', ''],
  ['truncate-max-batch-size', 'int', '10485760', '10485760'],
  ['truncate-max-event-size', 'int', '102400', '102400'],
  ['version', 'string', '"audit.k8s.io/v1"', '"audit.k8s.io/v1"'],
];

describe('AuditOptions flags', () => {
  const { fss } = setup([]);
  const shown = new Map(fss.flagsIn('Auditing').map((f) => [f.name, [f.typeName, f.defaultText]]));

  it.each(SUFFIXES)(
    '--audit-{log,webhook}-%s is %s with the per-sink defaults',
    (suffix, type, log, webhook) => {
      expect(shown.get(`audit-log-${suffix}`)).toEqual([type, log]);
      expect(shown.get(`audit-webhook-${suffix}`)).toEqual([type, webhook]);
    },
  );

  it.each([
    ['audit-policy-file', 'string', ''],
    ['audit-log-path', 'string', ''],
    ['audit-log-format', 'string', '"json"'],
    ['audit-log-compress', '', ''],
    ['audit-log-maxage', 'int', ''],
    ['audit-log-maxbackup', 'int', ''],
    ['audit-log-maxsize', 'int', ''],
    ['audit-webhook-config-file', 'string', ''],
    ['audit-webhook-initial-backoff', 'duration', '10s'],
  ])('--%s is %j with default %j', (name, type, def) => {
    expect(shown.get(name)).toEqual([type, def]);
  });

  it('registers nothing else', () => {
    expect(shown.size).toBe(9 + 2 * SUFFIXES.length);
  });
});

describe('AuditOptions slice', () => {
  it('audits nothing by default', () => {
    const { o, slice } = setup([]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({ policyFile: undefined, log: undefined, webhook: undefined });
  });

  it('audits nothing without a policy file, even with sinks configured', () => {
    const { o, slice } = setup(['--audit-log-path=-', '--audit-webhook-config-file=/etc/wh.conf']);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({ policyFile: undefined, log: undefined, webhook: undefined });
  });

  it('resolves both sinks with their defaults', () => {
    const { o, slice } = setup([
      '--audit-policy-file=/etc/policy.yaml',
      '--audit-log-path=/var/log/audit.log',
      '--audit-webhook-config-file=/etc/wh.conf',
    ]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s.policyFile).toBe('/etc/policy.yaml');
    expect(s.log).toEqual({
      mode: 'blocking',
      batch: undefined,
      truncate: undefined,
      groupVersion: 'audit.k8s.io/v1',
      path: '/var/log/audit.log',
      format: 'json',
      compress: false,
      maxAgeDays: 0,
      maxBackups: 0,
      maxSizeMB: 100,
    });
    expect({ ...s.webhook, initialBackoff: s.webhook?.initialBackoff.toString(), batch: undefined }).toEqual({
      mode: 'batch',
      batch: undefined,
      truncate: undefined,
      groupVersion: 'audit.k8s.io/v1',
      configFile: '/etc/wh.conf',
      initialBackoff: '10s',
    });
    const batch = s.webhook?.batch;
    expect({ ...batch, maxBatchWait: batch?.maxBatchWait.toString() }).toEqual({
      bufferSize: 10000,
      maxBatchSize: 400,
      maxBatchWait: '30s',
      throttle: { qps: 10, burst: 15 },
    });
  });

  it('parses every flag of both sinks', () => {
    const sink = (p: string) => [
      `--audit-${p}-batch-buffer-size=500`,
      `--audit-${p}-batch-max-size=50`,
      `--audit-${p}-batch-max-wait=5s`,
      `--audit-${p}-batch-throttle-burst=3`,
      `--audit-${p}-batch-throttle-enable=true`,
      `--audit-${p}-batch-throttle-qps=1.5`,
      `--audit-${p}-mode=batch`,
      `--audit-${p}-truncate-enabled`,
      `--audit-${p}-truncate-max-batch-size=2048`,
      `--audit-${p}-truncate-max-event-size=1024`,
      `--audit-${p}-version=audit.k8s.io/v1`,
    ];
    const { parsed, o, slice } = setup([
      '--audit-policy-file=/p.yaml',
      '--audit-log-path=-',
      '--audit-log-format=legacy',
      '--audit-log-compress',
      '--audit-log-maxage=7',
      '--audit-log-maxbackup=3',
      '--audit-log-maxsize=50',
      '--audit-webhook-config-file=/wh.conf',
      '--audit-webhook-initial-backoff=2s',
      ...sink('log'),
      ...sink('webhook'),
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    const expectedSink = {
      mode: 'batch',
      batch: { bufferSize: 500, maxBatchSize: 50, maxBatchWait: '5s', throttle: { qps: 1.5, burst: 3 } },
      truncate: { maxBatchSize: 2048, maxEventSize: 1024 },
      groupVersion: 'audit.k8s.io/v1',
    };
    const { batch: logBatch, ...log } = s.log ?? { batch: undefined };
    expect({ ...log, batch: { ...logBatch, maxBatchWait: logBatch?.maxBatchWait.toString() } }).toEqual({
      ...expectedSink,
      path: '-',
      format: 'legacy',
      compress: true,
      maxAgeDays: 7,
      maxBackups: 3,
      maxSizeMB: 50,
    });
    const {
      batch: whBatch,
      initialBackoff,
      ...webhook
    } = s.webhook ?? { batch: undefined, initialBackoff: undefined };
    expect({
      ...webhook,
      initialBackoff: initialBackoff?.toString(),
      batch: { ...whBatch, maxBatchWait: whBatch?.maxBatchWait.toString() },
    }).toEqual({ ...expectedSink, configFile: '/wh.conf', initialBackoff: '2s' });
  });

  it('leaves throttling out when it is off', () => {
    const { slice } = setup([
      '--audit-policy-file=/p',
      '--audit-webhook-config-file=/w',
      '--audit-webhook-batch-throttle-enable=false',
    ]);
    expect(slice().webhook?.batch?.throttle).toBeUndefined();
  });
});

describe('AuditOptions parse errors', () => {
  it.each([
    [
      '--audit-log-mode=async',
      'invalid argument "async" for "--audit-log-mode" flag: must be one of "blocking", "batch", "blocking-strict"',
    ],
    [
      '--audit-webhook-mode=Batch',
      'invalid argument "Batch" for "--audit-webhook-mode" flag: must be one of "blocking", "batch", "blocking-strict"',
    ],
    [
      '--audit-log-format=yaml',
      'invalid argument "yaml" for "--audit-log-format" flag: must be one of "legacy", "json"',
    ],
  ])('%s', (arg, error) => {
    expect(setup([arg]).parsed.errors).toEqual([error]);
  });
});

describe('AuditOptions.validate', () => {
  it.each([
    [['--audit-log-mode=blocking-strict', '--audit-webhook-mode=blocking'], []],
    [
      ['--audit-log-maxage=-1', '--audit-log-maxbackup=-2', '--audit-log-maxsize=-3'],
      [
        '--audit-log-maxage must not be negative, got -1',
        '--audit-log-maxbackup must not be negative, got -2',
        '--audit-log-maxsize must not be negative, got -3',
      ],
    ],
    [
      ['--audit-webhook-initial-backoff=-1s'],
      ['--audit-webhook-initial-backoff must not be negative, got -1s'],
    ],
    [
      ['--audit-log-version=audit.k8s.io/v1alpha1', '--audit-webhook-version=v1'],
      [
        '--audit-log-version "audit.k8s.io/v1alpha1" is not supported; supported values: "audit.k8s.io/v1", "audit.k8s.io/v1beta1"',
        '--audit-webhook-version "v1" is not supported; supported values: "audit.k8s.io/v1", "audit.k8s.io/v1beta1"',
      ],
    ],
    // Outside batch mode the batch settings only have to be sane.
    [['--audit-log-batch-buffer-size=0', '--audit-log-batch-max-size=0'], []],
    [
      ['--audit-log-batch-buffer-size=-1', '--audit-log-batch-max-size=-1', '--audit-log-batch-max-wait=-1s'],
      [
        '--audit-log-batch-buffer-size must not be negative, got -1',
        '--audit-log-batch-max-size must not be negative, got -1',
        '--audit-log-batch-max-wait must not be negative, got -1s',
      ],
    ],
    [
      ['--audit-log-batch-throttle-qps=-1', '--audit-log-batch-throttle-burst=-1'],
      [
        '--audit-log-batch-throttle-qps must not be negative, got -1',
        '--audit-log-batch-throttle-burst must not be negative, got -1',
      ],
    ],
    [['--audit-log-batch-max-size=20000'], []],
    [
      ['--audit-webhook-batch-buffer-size=0', '--audit-webhook-batch-max-size=0'],
      [
        '--audit-webhook-batch-buffer-size must be greater than 0 in batch mode, got 0',
        '--audit-webhook-batch-max-size must be greater than 0 in batch mode, got 0',
      ],
    ],
    [
      ['--audit-webhook-batch-buffer-size=100'],
      [
        '--audit-webhook-batch-max-size (400) must not be greater than --audit-webhook-batch-buffer-size (100)',
      ],
    ],
    [['--audit-webhook-batch-buffer-size=400'], []],
    [
      ['--audit-webhook-batch-throttle-qps=0', '--audit-webhook-batch-throttle-burst=-1'],
      [
        '--audit-webhook-batch-throttle-qps must be greater than 0 when batch throttling is enabled, got 0',
        '--audit-webhook-batch-throttle-burst must be greater than 0 when batch throttling is enabled, got -1',
      ],
    ],
    [['--audit-webhook-batch-throttle-qps=0', '--audit-webhook-batch-throttle-enable=false'], []],
    // The log sink's throttle settings are unset, so batch mode with throttling needs them given.
    [
      ['--audit-log-mode=batch', '--audit-log-batch-throttle-enable'],
      [
        '--audit-log-batch-throttle-qps must be greater than 0 when batch throttling is enabled, got 0',
        '--audit-log-batch-throttle-burst must be greater than 0 when batch throttling is enabled, got 0',
      ],
    ],
    [
      ['--audit-log-truncate-max-batch-size=0', '--audit-log-truncate-max-event-size=0'],
      [
        '--audit-log-truncate-max-batch-size must be greater than 0, got 0',
        '--audit-log-truncate-max-event-size must be greater than 0, got 0',
      ],
    ],
    [
      ['--audit-webhook-truncate-max-batch-size=1000', '--audit-webhook-truncate-max-event-size=1001'],
      [
        '--audit-webhook-truncate-max-batch-size (1000) must not be less than --audit-webhook-truncate-max-event-size (1001)',
      ],
    ],
    [['--audit-webhook-truncate-max-batch-size=1000', '--audit-webhook-truncate-max-event-size=1000'], []],
  ])('%j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
