import { Duration, flagTypes as t } from '@keel/flags';
import type { NamedFlagSets, OptionsGroup } from '@keel/flags';

/** The lock kinds `--leader-elect-resource-lock` accepts (client-go resourcelock names). */
export const RESOURCE_LOCK_TYPES = ['leases', 'endpointsleases', 'configmapsleases'] as const;
export type ResourceLockType = (typeof RESOURCE_LOCK_TYPES)[number];

/**
 * client-go's JitterFactor: retries are spread over RetryPeriod × 1.2, so a renew deadline at or
 * below that could expire before a single retry had a chance to run.
 */
export const JITTER_FACTOR = 1.2;

/** Leader election as the runtime uses it (component-base LeaderElectionConfiguration). */
export interface LeaderElectionConfig {
  readonly leaderElect: boolean;
  readonly leaseDuration: Duration;
  readonly renewDeadline: Duration;
  readonly retryPeriod: Duration;
  /** One of RESOURCE_LOCK_TYPES once validated; kept a string because config files may say anything. */
  readonly resourceLock: string;
  readonly resourceName: string;
  readonly resourceNamespace: string;
}

export type LeaderElectionField = keyof LeaderElectionConfig;

/**
 * How messages name a field: a prefix for config files (`leaderElection.` gives
 * `leaderElection.leaseDuration`) or a function, e.g. one that names the flag the value came from.
 */
export type LeaderElectionFieldNamer = string | ((field: LeaderElectionField) => string);

/** The command-line flag of each field, without dashes. */
export const LEADER_ELECTION_FLAGS: Readonly<Record<LeaderElectionField, string>> = {
  leaderElect: 'leader-elect',
  leaseDuration: 'leader-elect-lease-duration',
  renewDeadline: 'leader-elect-renew-deadline',
  retryPeriod: 'leader-elect-retry-period',
  resourceLock: 'leader-elect-resource-lock',
  resourceName: 'leader-elect-resource-name',
  resourceNamespace: 'leader-elect-resource-namespace',
};

export const leaderElectionFlagNamer = (field: LeaderElectionField): string =>
  `--${LEADER_ELECTION_FLAGS[field]}`;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
// apimachinery's own wording, so users recognise the rule from the real components.
const LABEL_RULE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

function checkDnsName(name: string, value: string, kind: 'label' | 'subdomain'): string[] {
  if (value === '') return [`${name} must not be empty`];
  const [max, pattern, rule] =
    kind === 'label' ? [63, DNS1123_LABEL, LABEL_RULE] : [253, DNS1123_SUBDOMAIN, SUBDOMAIN_RULE];
  const errors: string[] = [];
  if (value.length > max)
    errors.push(`${name} ${JSON.stringify(value)} is invalid: must be no more than ${max} characters`);
  if (!pattern.test(value)) errors.push(`${name} ${JSON.stringify(value)} is invalid: ${rule}`);
  return errors;
}

/**
 * Every problem with a leader election configuration, as component-base and client-go's
 * NewLeaderElector see them. Like component-base, nothing is checked when leader election is off:
 * the other values are then unused.
 */
export function validateLeaderElection(cfg: LeaderElectionConfig, namer: LeaderElectionFieldNamer): string[] {
  if (!cfg.leaderElect) return [];
  const n = typeof namer === 'string' ? (f: LeaderElectionField) => `${namer}${f}` : namer;
  const errors: string[] = [];
  const durations = ['leaseDuration', 'renewDeadline', 'retryPeriod'] as const;
  for (const f of durations) {
    if (cfg[f].nanoseconds <= 0n) errors.push(`${n(f)} must be greater than 0, got ${cfg[f].toString()}`);
  }
  const positive = (f: (typeof durations)[number]) => cfg[f].nanoseconds > 0n;
  // The ordering rules only make sense between positive values; a zero is already reported above.
  if (
    positive('leaseDuration') &&
    positive('renewDeadline') &&
    cfg.leaseDuration.compare(cfg.renewDeadline) <= 0
  ) {
    errors.push(
      `${n('leaseDuration')} (${cfg.leaseDuration.toString()}) must be greater than ${n('renewDeadline')} (${cfg.renewDeadline.toString()})`,
    );
  }
  if (positive('renewDeadline') && positive('retryPeriod')) {
    const jittered = Duration.fromNanoseconds((cfg.retryPeriod.nanoseconds * 12n) / 10n);
    if (cfg.renewDeadline.compare(jittered) <= 0) {
      errors.push(
        `${n('renewDeadline')} (${cfg.renewDeadline.toString()}) must be greater than ${n('retryPeriod')} (${cfg.retryPeriod.toString()}) ` +
          `times the jitter factor ${JITTER_FACTOR} (${jittered.toString()})`,
      );
    }
  }
  if (!(RESOURCE_LOCK_TYPES as readonly string[]).includes(cfg.resourceLock)) {
    const allowed = RESOURCE_LOCK_TYPES.map((v) => JSON.stringify(v)).join(', ');
    errors.push(
      `${n('resourceLock')} ${JSON.stringify(cfg.resourceLock)} is not supported; supported values: ${allowed}`,
    );
  }
  // A Lease is named like any object (a DNS subdomain); namespaces are DNS labels.
  errors.push(...checkDnsName(n('resourceName'), cfg.resourceName, 'subdomain'));
  errors.push(...checkDnsName(n('resourceNamespace'), cfg.resourceNamespace, 'label'));
  return errors;
}

/** The `--leader-elect*` flags (component-base BindLeaderElectionFlags). */
export class LeaderElectionOptions implements OptionsGroup<{ leaderElection?: LeaderElectionConfig }> {
  leaderElect = true;
  leaseDuration = Duration.parse('15s');
  renewDeadline = Duration.parse('10s');
  retryPeriod = Duration.parse('2s');
  resourceLock = 'leases';
  resourceName = 'platform-scheduler';
  resourceNamespace = 'platform-system';

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Leader election');
    s.var(this, 'leaderElect', {
      name: LEADER_ELECTION_FLAGS.leaderElect,
      type: t.bool,
      usage:
        'Start a leader election client and gain leadership before executing the main loop. ' +
        'Enable this when running replicated components for high availability.',
    });
    s.var(this, 'leaseDuration', {
      name: LEADER_ELECTION_FLAGS.leaseDuration,
      type: t.duration,
      usage:
        'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire ' +
        'leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped ' +
        'before it is replaced by another candidate. This is only applicable if leader election is enabled.',
    });
    s.var(this, 'renewDeadline', {
      name: LEADER_ELECTION_FLAGS.renewDeadline,
      type: t.duration,
      usage:
        'The interval between attempts by the acting leader to renew a leadership slot before it stops leading. ' +
        'This must be less than the lease duration. This is only applicable if leader election is enabled.',
    });
    s.var(this, 'retryPeriod', {
      name: LEADER_ELECTION_FLAGS.retryPeriod,
      type: t.duration,
      usage:
        'The duration the clients should wait between attempting acquisition and renewal of a leadership. ' +
        'This is only applicable if leader election is enabled.',
    });
    s.var(this, 'resourceLock', {
      name: LEADER_ELECTION_FLAGS.resourceLock,
      type: t.string,
      usage:
        "The type of resource object that is used for locking during leader election. Supported options are 'leases', " +
        "'endpointsleases' and 'configmapsleases'.",
    });
    s.var(this, 'resourceName', {
      name: LEADER_ELECTION_FLAGS.resourceName,
      type: t.string,
      usage: 'The name of resource object that is used for locking during leader election.',
    });
    s.var(this, 'resourceNamespace', {
      name: LEADER_ELECTION_FLAGS.resourceNamespace,
      type: t.string,
      usage: 'The namespace of resource object that is used for locking during leader election.',
    });
  }

  validate(): string[] {
    return validateLeaderElection(this.toConfig(), leaderElectionFlagNamer);
  }

  applyTo(config: { leaderElection?: LeaderElectionConfig }): void {
    config.leaderElection = this.toConfig();
  }

  /** The current values as a slice; with untouched fields this is the default configuration. */
  toConfig(): LeaderElectionConfig {
    return {
      leaderElect: this.leaderElect,
      leaseDuration: this.leaseDuration,
      renewDeadline: this.renewDeadline,
      retryPeriod: this.retryPeriod,
      resourceLock: this.resourceLock,
      resourceName: this.resourceName,
      resourceNamespace: this.resourceNamespace,
    };
  }
}
