import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import {
  BETA_ON_BY_DEFAULT,
  ApiEnablementOptions,
  SERVED_GROUP_VERSIONS,
  type ApiEnablementConfig,
} from './api-enablement-options.js';

function setup(argv: string[]) {
  const o = new ApiEnablementOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { apiEnablement?: ApiEnablementConfig } = {};
    o.applyTo(config);
    if (!config.apiEnablement) throw new Error('applyTo wrote no apiEnablement slice');
    return config.apiEnablement;
  };
  return { o, fss, parsed, slice };
}

/** The served group/versions that are on, in declaration order. */
function enabled(s: ApiEnablementConfig): string[] {
  return SERVED_GROUP_VERSIONS.filter((gv) => s.isEnabled(gv));
}

const ALL = [...SERVED_GROUP_VERSIONS];
/** What is served without --runtime-config: the GA versions and the betas on by default. */
const GA = ALL.filter((gv) => !/\/v\d+(alpha|beta)\d+$/.test(gv) || BETA_ON_BY_DEFAULT.has(gv));

describe('ApiEnablementOptions', () => {
  it('registers --runtime-config in the API enablement section', () => {
    const { fss } = setup([]);
    expect(fss.flagsIn('API enablement').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['runtime-config', 'mapStringString', ''],
    ]);
  });

  it.each([
    [[], GA],
    [['--runtime-config=api/all=false,v1=true'], ['v1']],
    [['--runtime-config=api/all=false,api/v1=true'], ['v1']],
    [['--runtime-config=api/all=false', '--runtime-config=events.k8s.io/v1'], ['events.k8s.io/v1']],
    // api/ga leaves the betas on by default as they are.
    [
      ['--runtime-config=api/ga=false,coordination.k8s.io/v1=1'],
      ['coordination.k8s.io/v1', ...BETA_ON_BY_DEFAULT],
    ],
    [['--runtime-config=api/ga=false,api/all=true'], ALL.filter((gv) => /\/v\d+(alpha|beta)\d+$/.test(gv))],
    [['--runtime-config=api/beta,api/alpha=true'], ALL],
    [
      ['--runtime-config=authorization.k8s.io/v1=false,authentication.k8s.io/v1=F'],
      [
        'v1',
        'apps/v1',
        'events.k8s.io/v1',
        'policy/v1',
        'rbac.authorization.k8s.io/v1',
        'storage.k8s.io/v1',
        'admissionregistration.k8s.io/v1',
        'scheduling.k8s.io/v1',
        'coordination.k8s.io/v1',
        'flowcontrol.apiserver.k8s.io/v1',
        ...BETA_ON_BY_DEFAULT,
      ],
    ],
    [
      ['--runtime-config=rbac.authorization.k8s.io/v1=false,admissionregistration.k8s.io/v1=0'],
      GA.filter((gv) => !['rbac.authorization.k8s.io/v1', 'admissionregistration.k8s.io/v1'].includes(gv)),
    ],
    [['--runtime-config=scheduling.k8s.io/v1=false'], GA.filter((gv) => gv !== 'scheduling.k8s.io/v1')],
    [['--runtime-config=authentication.k8s.io/v1beta1=true'], [...GA, 'authentication.k8s.io/v1beta1']],
    // Switching a resource on also serves its group/version.
    [['--runtime-config=api/all=false,events.k8s.io/v1/events=true'], ['events.k8s.io/v1']],
  ])('%j', (argv, expected) => {
    const { parsed, o, slice } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    expect(enabled(slice())).toEqual(expected);
  });

  it('turns off one core resource and leaves the rest of v1 on', () => {
    const { o, slice } = setup(['--runtime-config=api/v1/configmaps=false']);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s.isEnabled('v1')).toBe(true);
    expect(s.isResourceEnabled('v1', 'configmaps')).toBe(false);
    expect(s.isResourceEnabled('v1', 'pods')).toBe(true);
  });

  it('resolves resource switches over their group/version', () => {
    const { o, slice } = setup(['--runtime-config=api/v1/pods=false,events.k8s.io/v1/events=true']);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s.isResourceEnabled('v1', 'pods')).toBe(false);
    expect(s.isResourceEnabled('v1', 'nodes')).toBe(true);
    expect(s.isResourceEnabled('events.k8s.io/v1', 'events')).toBe(true);
    expect([...s.resources]).toEqual([
      ['v1/pods', false],
      ['events.k8s.io/v1/events', true],
    ]);
    expect(s.isEnabled('batch/v1')).toBe(false);
    expect(s.isResourceEnabled('batch/v1', 'jobs')).toBe(false);
    expect([...s.groupVersions.keys()]).toEqual(ALL);
  });

  it.each([
    [['--runtime-config=api/all=false'], ['--runtime-config: invalid key with only api/all=false']],
    [['--runtime-config=api/all=false,api/ga=false'], []],
    [
      ['--runtime-config=api/all=maybe'],
      [
        '--runtime-config: invalid value of api/all: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
      ],
    ],
    [
      ['--runtime-config=foo,a/b/c/d,/v1,events.k8s.io/,v2'],
      [
        '--runtime-config invalid key foo',
        '--runtime-config invalid key a/b/c/d',
        '--runtime-config invalid key /v1',
        '--runtime-config invalid key events.k8s.io/',
        '--runtime-config invalid key v2',
      ],
    ],
    [
      ['--runtime-config=autoscaling/v1=true,batch/v1/jobs=false,autoscaling/v2'],
      ['--runtime-config: unknown api groups autoscaling,batch'],
    ],
    [
      ['--runtime-config=events.k8s.io/v1beta1=true,api/v2=true,coordination.k8s.io/v2/leases=false'],
      [
        '--runtime-config: unknown group version events.k8s.io/v1beta1',
        '--runtime-config: unknown group version api/v2',
        '--runtime-config: unknown group version coordination.k8s.io/v2',
      ],
    ],
    [
      ['--runtime-config=rbac.authorization.k8s.io/v1beta1=true,scheduling.k8s.io/v1alpha1/priorityclasses'],
      [
        '--runtime-config: unknown group version rbac.authorization.k8s.io/v1beta1',
        '--runtime-config: unknown group version scheduling.k8s.io/v1alpha1',
      ],
    ],
    [
      ['--runtime-config=apps/v1=yes,x'],
      [
        '--runtime-config: invalid value of apps/v1: yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
        '--runtime-config invalid key x',
      ],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
