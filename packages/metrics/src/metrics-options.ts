import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';

/** One --allow-metric-labels entry: only these values of the label are kept, others are replaced. */
export interface MetricLabelAllowList {
  readonly metricName: string;
  readonly labelName: string;
  readonly allowedValues: readonly string[];
}

export interface MetricsConfig {
  /** Fully qualified names of metrics not to register; wins over showing hidden metrics. */
  readonly disabledMetrics: readonly string[];
  /** `<major>.<minor>` as given, or '' when hidden metrics stay hidden. */
  readonly showHiddenMetricsForVersion: string;
  readonly showHiddenMetrics: boolean;
  readonly allowMetricLabels: readonly MetricLabelAllowList[];
}

/** The platform release whose metrics Keel exposes; `apimachinery`'s `platformVersion` fits. */
export interface PlatformVersion {
  readonly major: string | number;
  readonly minor: string | number;
}

// component-base's own patterns for the key; anything else could never match a metric.
const ALLOW_LIST_KEY = /^[a-zA-Z_:][a-zA-Z0-9_:]*,[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The 'Metrics' flags shared by both daemons (component-base metrics Options). */
export class MetricsOptions implements OptionsGroup<{ metrics?: MetricsConfig }> {
  disabledMetrics: readonly string[] = [];
  showHiddenMetricsForVersion = '';
  allowMetricLabels: ReadonlyMap<string, string> = new Map();

  private readonly previousMinor: string;

  constructor({ platformVersion }: { platformVersion: PlatformVersion }) {
    // parseInt, not Number: release minors may carry a suffix ("34+"), as /version reports them.
    this.previousMinor = `${parseInt(String(platformVersion.major), 10)}.${parseInt(String(platformVersion.minor), 10) - 1}`;
  }

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Metrics');
    s.var(this, 'disabledMetrics', {
      name: 'disabled-metrics',
      type: t.strings,
      usage:
        'This flag provides an escape hatch for misbehaving metrics. You must provide the fully qualified metric ' +
        'name in order to disable it. Disclaimer: disabling metrics is higher in precedence than showing hidden metrics.',
    });
    s.var(this, 'showHiddenMetricsForVersion', {
      name: 'show-hidden-metrics-for-version',
      type: t.string,
      usage:
        'The previous version for which you want to show hidden metrics. Only the previous minor version is ' +
        `meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '${this.previousMinor}'. ` +
        'The purpose of this format is make sure you have the opportunity to notice if the next release hides ' +
        'additional metrics, rather than being surprised when they are permanently removed in the release after that.',
    });
    s.var(this, 'allowMetricLabels', {
      name: 'allow-metric-labels',
      type: t.stringToString,
      usage:
        "The map from metric-label to value allow-list of this label. The key's format is <MetricName>,<LabelName>. " +
        "The value's format is <allowed_value>,<allowed_value>...e.g. metric1,label1='v1,v2,v3', " +
        "metric1,label2='v1,v2,v3' metric2,label1='v1,v2,v3'.",
    });
  }

  validate(): string[] {
    const errors: string[] = [];
    if (this.showHiddenMetricsForVersion !== '' && this.showHiddenMetricsForVersion !== this.previousMinor) {
      errors.push(
        `--show-hidden-metrics-for-version must be omitted or have the value '${this.previousMinor}'. ` +
          'Only the previous minor version is allowed',
      );
    }
    for (const key of this.allowMetricLabels.keys()) {
      if (!ALLOW_LIST_KEY.test(key)) {
        errors.push(
          `--allow-metric-labels key ${JSON.stringify(key)} must have the format <MetricName>,<LabelName>, ` +
            'e.g. metric1,label1',
        );
      }
    }
    return errors;
  }

  applyTo(config: { metrics?: MetricsConfig }): void {
    config.metrics = {
      disabledMetrics: [...this.disabledMetrics],
      showHiddenMetricsForVersion: this.showHiddenMetricsForVersion,
      showHiddenMetrics: this.showHiddenMetricsForVersion !== '',
      allowMetricLabels: [...this.allowMetricLabels].map(([key, value]) => {
        const [metricName = '', labelName = ''] = key.split(',');
        return { metricName, labelName, allowedValues: unquote(value).split(',') };
      }),
    };
  }
}

/** The documented example quotes the value for the shell; a quote that reaches us is not part of it. */
function unquote(value: string): string {
  return value.length >= 2 && value.startsWith("'") && value.endsWith("'") ? value.slice(1, -1) : value;
}
