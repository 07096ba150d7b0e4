import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { MetricsOptions, type MetricsConfig, type PlatformVersion } from './index.js';

function run(argv: string[], platformVersion: PlatformVersion = { major: 1, minor: 34 }) {
  const o = new MetricsOptions({ platformVersion });
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const config: { metrics?: MetricsConfig } = {};
  o.applyTo(config);
  return { o, fss, parseErrors: parsed.errors, errors: o.validate(), config: config.metrics };
}

describe('MetricsOptions', () => {
  it('defaults', () => {
    const { errors, config, fss } = run([]);
    expect(errors).toEqual([]);
    expect(config).toEqual({
      disabledMetrics: [],
      showHiddenMetricsForVersion: '',
      showHiddenMetrics: false,
      allowMetricLabels: [],
    });
    expect(fss.flagsIn('Metrics').map((f) => f.name)).toEqual([
      'disabled-metrics',
      'show-hidden-metrics-for-version',
      'allow-metric-labels',
    ]);
    expect(fss.lookup('show-hidden-metrics-for-version')?.usage).toContain("e.g.: '1.33'");
  });

  it.each<[string, string[], Partial<MetricsConfig>]>([
    [
      'disabled metrics, comma list and repeated',
      ['--disabled-metrics', 'a_total,b_seconds', '--disabled-metrics=c'],
      { disabledMetrics: ['a_total', 'b_seconds', 'c'] },
    ],
    [
      'previous minor version',
      ['--show-hidden-metrics-for-version', '1.33'],
      { showHiddenMetricsForVersion: '1.33', showHiddenMetrics: true },
    ],
    [
      'one allow-list entry whose value holds commas',
      ["--allow-metric-labels=metric1,label1='v1,v2,v3'"],
      {
        allowMetricLabels: [
          { metricName: 'metric1', labelName: 'label1', allowedValues: ['v1', 'v2', 'v3'] },
        ],
      },
    ],
    [
      'repeated allow-list entries, unquoted value',
      ['--allow-metric-labels', 'm_total,code=200,404', '--allow-metric-labels', 'm:x,verb=GET'],
      {
        allowMetricLabels: [
          { metricName: 'm_total', labelName: 'code', allowedValues: ['200', '404'] },
          { metricName: 'm:x', labelName: 'verb', allowedValues: ['GET'] },
        ],
      },
    ],
  ])('%s', (_name, argv, expected) => {
    const { parseErrors, errors, config } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual([]);
    expect(config).toMatchObject(expected);
  });

  it('accepts the previous minor of whatever platform version it is given', () => {
    expect(run(['--show-hidden-metrics-for-version', '1.32'], { major: '1', minor: '33' }).errors).toEqual(
      [],
    );
    expect(run(['--show-hidden-metrics-for-version', '1.33'], { major: '1', minor: '34+' }).errors).toEqual(
      [],
    );
  });

  it('rejects an allow-list entry without = at parse time', () => {
    expect(run(['--allow-metric-labels', 'metric1']).parseErrors).toEqual([
      'invalid argument "metric1" for "--allow-metric-labels" flag: metric1 must be formatted as key=value',
    ]);
  });

  const hidden =
    "--show-hidden-metrics-for-version must be omitted or have the value '1.33'. Only the previous minor version is allowed";

  it.each<[string, string[], string[]]>([
    ['the current version', ['--show-hidden-metrics-for-version', '1.34'], [hidden]],
    ['two minors back', ['--show-hidden-metrics-for-version', '1.32'], [hidden]],
    ['not <major>.<minor>', ['--show-hidden-metrics-for-version', '1.33.0'], [hidden]],
    ['junk', ['--show-hidden-metrics-for-version', 'v1.33'], [hidden]],
    [
      'key without a comma',
      ['--allow-metric-labels', 'metric1=v1'],
      [
        '--allow-metric-labels key "metric1" must have the format <MetricName>,<LabelName>, e.g. metric1,label1',
      ],
    ],
    [
      'key with two commas',
      ['--allow-metric-labels', 'a,b,c=v1'],
      [
        '--allow-metric-labels key "a,b,c" must have the format <MetricName>,<LabelName>, e.g. metric1,label1',
      ],
    ],
    [
      'label name with a colon',
      ['--allow-metric-labels', 'm,l:x=v1'],
      [
        '--allow-metric-labels key "m,l:x" must have the format <MetricName>,<LabelName>, e.g. metric1,label1',
      ],
    ],
    [
      'every problem',
      ['--show-hidden-metrics-for-version', '2.0', '--allow-metric-labels', ',l=v'],
      [
        hidden,
        '--allow-metric-labels key ",l" must have the format <MetricName>,<LabelName>, e.g. metric1,label1',
      ],
    ],
  ])('rejects %s', (_name, argv, expected) => {
    const { parseErrors, errors } = run(argv);
    expect(parseErrors).toEqual([]);
    expect(errors).toEqual(expected);
  });
});
