import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { LifecycleOptions, type LifecycleConfig } from './lifecycle-options.js';

function setup(argv: string[]) {
  const o = new LifecycleOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { lifecycle?: LifecycleConfig } = {};
    o.applyTo(config);
    return config.lifecycle;
  };
  return { o, fss, parsed, slice };
}

describe('LifecycleOptions', () => {
  it('registers its flags in the Generic section with the spec defaults', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Generic').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['livez-grace-period', 'duration', ''],
      ['shutdown-delay-duration', 'duration', ''],
      ['shutdown-send-retry-after', '', ''],
      ['identity-lease-duration-seconds', 'int', '3600'],
      ['identity-lease-renew-interval-seconds', 'int', '10'],
    ]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.livezGracePeriod.toString()).toBe('0s');
    expect(s?.shutdownDelay.toString()).toBe('0s');
    expect(s?.shutdownSendRetryAfter).toBe(false);
    expect(s?.identityLease).toEqual({ durationSeconds: 3600, renewIntervalSeconds: 10 });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--livez-grace-period=30s',
      '--shutdown-delay-duration=1m30s',
      '--shutdown-send-retry-after',
      '--identity-lease-duration-seconds=120',
      '--identity-lease-renew-interval-seconds=20',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.livezGracePeriod.milliseconds).toBe(30_000);
    expect(s?.shutdownDelay.toString()).toBe('1m30s');
    expect(s?.shutdownSendRetryAfter).toBe(true);
    expect(s?.identityLease).toEqual({ durationSeconds: 120, renewIntervalSeconds: 20 });
  });

  it.each([
    [['--livez-grace-period=0s', '--shutdown-delay-duration=0'], []],
    [['--livez-grace-period=-1s'], ['--livez-grace-period must not be negative, got -1s']],
    [['--shutdown-delay-duration=-500ms'], ['--shutdown-delay-duration must not be negative, got -500ms']],
    [
      ['--identity-lease-duration-seconds=0', '--identity-lease-renew-interval-seconds=-1'],
      [
        '--identity-lease-duration-seconds must be greater than 0, got 0',
        '--identity-lease-renew-interval-seconds must be greater than 0, got -1',
      ],
    ],
    [
      ['--identity-lease-duration-seconds=10'],
      [
        '--identity-lease-renew-interval-seconds (10) must be less than --identity-lease-duration-seconds (10)',
      ],
    ],
    [['--identity-lease-duration-seconds=11'], []],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
