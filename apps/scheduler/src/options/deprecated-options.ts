import { checkNonNegative, flagTypes as t } from '@keel/flags';
import type { NamedFlagSets } from '@keel/flags';
import { CLIENT_CONNECTION_DEFAULTS } from './config-types.js';

const IGNORED_WITH_CONFIG = 'This parameter is ignored if a config file is specified in --config.';

/**
 * kube-scheduler's DeprecatedOptions: flags that predate the configuration file. Without `--config`
 * the ones the user set are copied into the configuration; with it they are ignored (with a warning).
 */
export class DeprecatedSchedulerOptions {
  contentionProfiling = true;
  profiling = true;
  platformApiBurst: number = CLIENT_CONNECTION_DEFAULTS.burst;
  platformApiContentType: string = CLIENT_CONNECTION_DEFAULTS.contentType;
  platformApiQps: number = CLIENT_CONNECTION_DEFAULTS.qps;
  connectionConfig = '';
  lockObjectName = 'platform-scheduler';
  lockObjectNamespace = 'platform-system';

  /** Flag names in the order they apply, so warnings come out in a stable order. */
  static readonly flagNames = [
    'contention-profiling',
    'profiling',
    'platform-api-burst',
    'platform-api-content-type',
    'platform-api-qps',
    'connection-config',
    'lock-object-name',
    'lock-object-namespace',
  ] as const;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Deprecated');
    s.var(this, 'contentionProfiling', {
      name: 'contention-profiling',
      type: t.bool,
      usage: `DEPRECATED: enable block profiling, if profiling is enabled. ${IGNORED_WITH_CONFIG}`,
    });
    s.var(this, 'profiling', {
      name: 'profiling',
      type: t.bool,
      usage: `DEPRECATED: enable profiling via web interface host:port/debug/pprof/. ${IGNORED_WITH_CONFIG}`,
    });
    s.var(this, 'platformApiBurst', {
      name: 'platform-api-burst',
      type: t.int32,
      usage: `DEPRECATED: burst to use while talking with the platform API server. ${IGNORED_WITH_CONFIG}`,
    });
    s.var(this, 'platformApiContentType', {
      name: 'platform-api-content-type',
      type: t.string,
      usage: `DEPRECATED: content type of requests sent to the API server. ${IGNORED_WITH_CONFIG}`,
    });
    s.var(this, 'platformApiQps', {
      name: 'platform-api-qps',
      type: t.float,
      usage: `DEPRECATED: QPS to use while talking with the platform API server. ${IGNORED_WITH_CONFIG}`,
    });
    s.var(this, 'connectionConfig', {
      name: 'connection-config',
      type: t.string,
      usage: `DEPRECATED: path to the connection-config file with authorization and API server location information. ${IGNORED_WITH_CONFIG}`,
    });
    // pflag-deprecated: --help appends "(DEPRECATED: use ... instead)", so the usage does not repeat it.
    s.var(this, 'lockObjectName', {
      name: 'lock-object-name',
      type: t.string,
      usage: `Define the name of the lock object. ${IGNORED_WITH_CONFIG}`,
      deprecated: 'use --leader-elect-resource-name instead',
    });
    s.var(this, 'lockObjectNamespace', {
      name: 'lock-object-namespace',
      type: t.string,
      usage: `Define the namespace of the lock object. ${IGNORED_WITH_CONFIG}`,
      deprecated: 'use --leader-elect-resource-namespace instead',
    });
  }

  /** Checks the values that reach the client; lock names are checked with the rest of leader election. */
  validate(): string[] {
    return [
      ...checkNonNegative('platform-api-qps', this.platformApiQps),
      ...checkNonNegative('platform-api-burst', this.platformApiBurst),
    ];
  }
}
