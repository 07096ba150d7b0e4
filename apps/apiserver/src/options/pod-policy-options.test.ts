import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { PodPolicyOptions, type PodPolicyConfig } from './pod-policy-options.js';

function setup(argv: string[]) {
  const o = new PodPolicyOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { podPolicy?: PodPolicyConfig } = {};
    o.applyTo(config);
    return config.podPolicy;
  };
  return { o, fss, parsed, slice };
}

describe('PodPolicyOptions', () => {
  it('registers its flags in the Misc section with the spec defaults', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Misc').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['allow-privileged', '', ''],
      ['default-not-ready-toleration-seconds', 'int', '300'],
      ['default-unreachable-toleration-seconds', 'int', '300'],
    ]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({
      allowPrivileged: false,
      defaultNotReadyTolerationSeconds: 300,
      defaultUnreachableTolerationSeconds: 300,
    });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--allow-privileged',
      '--default-not-ready-toleration-seconds=0',
      '--default-unreachable-toleration-seconds=60',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({
      allowPrivileged: true,
      defaultNotReadyTolerationSeconds: 0,
      defaultUnreachableTolerationSeconds: 60,
    });
  });

  it.each([
    [
      ['--default-not-ready-toleration-seconds=-1'],
      ['--default-not-ready-toleration-seconds must not be negative, got -1'],
    ],
    [
      ['--default-unreachable-toleration-seconds=-300'],
      ['--default-unreachable-toleration-seconds must not be negative, got -300'],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
