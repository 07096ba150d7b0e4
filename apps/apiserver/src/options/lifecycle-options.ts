import {
  Duration,
  checkPositive,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
  checkDurationNonNegative,
} from '@keel/flags';

/** Startup, shutdown and the server's identity lease: how one instance comes and goes. */
export interface LifecycleConfig {
  /** From start until this much time has passed, /livez treats unfinished post-start hooks as healthy. */
  readonly livezGracePeriod: Duration;
  /** After a termination signal: keep serving this long, /readyz failing, before shutting down. */
  readonly shutdownDelay: Duration;
  /** While draining, answer new requests with 429, Retry-After and Connection: close. */
  readonly shutdownSendRetryAfter: boolean;
  readonly identityLease: {
    readonly durationSeconds: number;
    readonly renewIntervalSeconds: number;
  };
}

export class LifecycleOptions implements OptionsGroup<{ lifecycle?: LifecycleConfig }> {
  livezGracePeriod = Duration.zero;
  shutdownDelayDuration = Duration.zero;
  shutdownSendRetryAfter = false;
  identityLeaseDurationSeconds = 3600;
  identityLeaseRenewIntervalSeconds = 10;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Generic');
    s.var(this, 'livezGracePeriod', {
      name: 'livez-grace-period',
      type: t.duration,
      usage:
        'This option represents the maximum amount of time it should take for apiserver to complete its startup ' +
        "sequence and become live. From apiserver's start time to when this amount of time has elapsed, /livez will " +
        'assume that unfinished post-start hooks will complete successfully and therefore return true.',
    });
    s.var(this, 'shutdownDelayDuration', {
      name: 'shutdown-delay-duration',
      type: t.duration,
      usage:
        'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints ' +
        '/healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination ' +
        'starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.',
    });
    s.var(this, 'shutdownSendRetryAfter', {
      name: 'shutdown-send-retry-after',
      type: t.bool,
      usage:
        'If true the HTTP Server will continue listening until all non long running request(s) in flight have been ' +
        "drained, during this window all incoming requests will be rejected with a status code 429 and a 'Retry-After' " +
        "response header, in addition 'Connection: close' response header is set in order to tear down the TCP " +
        'connection when idle.',
    });
    s.var(this, 'identityLeaseDurationSeconds', {
      name: 'identity-lease-duration-seconds',
      type: t.int,
      usage:
        'The duration of the apiserver identity lease in seconds, must be a positive number. ' +
        '(In use when the APIServerIdentity feature gate is enabled.)',
    });
    s.var(this, 'identityLeaseRenewIntervalSeconds', {
      name: 'identity-lease-renew-interval-seconds',
      type: t.int,
      usage:
        'The interval of the apiserver renewing its identity lease in seconds, must be a positive number. ' +
        '(In use when the APIServerIdentity feature gate is enabled.)',
    });
  }

  validate(): string[] {
    const errors = [
      ...checkDurationNonNegative('livez-grace-period', this.livezGracePeriod),
      ...checkDurationNonNegative('shutdown-delay-duration', this.shutdownDelayDuration),
      ...checkPositive('identity-lease-duration-seconds', this.identityLeaseDurationSeconds),
      ...checkPositive('identity-lease-renew-interval-seconds', this.identityLeaseRenewIntervalSeconds),
    ];
    // A lease renewed no sooner than it expires lapses between renewals; kube does not check this.
    if (errors.length === 0 && this.identityLeaseRenewIntervalSeconds >= this.identityLeaseDurationSeconds) {
      errors.push(
        `--identity-lease-renew-interval-seconds (${this.identityLeaseRenewIntervalSeconds}) must be less than ` +
          `--identity-lease-duration-seconds (${this.identityLeaseDurationSeconds})`,
      );
    }
    return errors;
  }

  applyTo(config: { lifecycle?: LifecycleConfig }): void {
    config.lifecycle = {
      livezGracePeriod: this.livezGracePeriod,
      shutdownDelay: this.shutdownDelayDuration,
      shutdownSendRetryAfter: this.shutdownSendRetryAfter,
      identityLease: {
        durationSeconds: this.identityLeaseDurationSeconds,
        renewIntervalSeconds: this.identityLeaseRenewIntervalSeconds,
      },
    };
  }
}
