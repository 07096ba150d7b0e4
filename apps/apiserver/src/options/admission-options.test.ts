import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { AdmissionOptions, type AdmissionConfig } from './admission-options.js';
import {
  ALL_ADMISSION_PLUGINS,
  DEFAULT_ENABLED_ADMISSION_PLUGINS,
  isAdmissionPlugin,
} from './admission-plugins.js';
import { ADMISSION_PLUGINS } from '@keel/admission';

function setup(argv: string[]) {
  const o = new AdmissionOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { admission?: AdmissionConfig } = {};
    o.applyTo(config);
    return config.admission;
  };
  return { o, fss, parsed, slice };
}

/** The spec's two lists, copied verbatim from its "API server options: admission" section. */
const SPEC_DEFAULT_ENABLED =
  'NamespaceLifecycle / LimitRanger / ServiceAccount / TaintNodesByCondition / PodSecurity / Priority / DefaultTolerationSeconds / DefaultStorageClass / StorageObjectInUseProtection / PersistentVolumeClaimResize / RuntimeClass / CertificateApproval / CertificateSigning / CertificateSubjectRestriction / DefaultIngressClass / MutatingAdmissionWebhook / ValidatingAdmissionWebhook / ResourceQuota';
const SPEC_ALL_KNOWN =
  'AlwaysAdmit / AlwaysDeny / AlwaysPullImages / CertificateApproval / CertificateSigning / CertificateSubjectRestriction / DefaultIngressClass / DefaultStorageClass / DefaultTolerationSeconds / DenyServiceExternalIPs / EventRateLimit / ExtendedResourceToleration / ImagePolicyWebhook / LimitPodHardAntiAffinityTopology / LimitRanger / MutatingAdmissionWebhook / NamespaceAutoProvision / NamespaceExists / NamespaceLifecycle / NodeRestriction / OwnerReferencesPermissionEnforcement / PersistentVolumeClaimResize / PersistentVolumeLabel / PodNodeSelector / PodSecurity / PodTolerationRestriction / Priority / ResourceQuota / RuntimeClass / SecurityContextDeny / ServiceAccount / StorageObjectInUseProtection / TaintNodesByCondition / ValidatingAdmissionWebhook';
const list = (text: string) => text.split(' / ');

const DEFAULTS_IN_ORDER = ALL_ADMISSION_PLUGINS.filter((p) => DEFAULT_ENABLED_ADMISSION_PLUGINS.includes(p));

describe('admission plugin tables', () => {
  it('match the spec', () => {
    expect([...ALL_ADMISSION_PLUGINS].sort()).toEqual(list(SPEC_ALL_KNOWN));
    expect([...DEFAULT_ENABLED_ADMISSION_PLUGINS]).toEqual(list(SPEC_DEFAULT_ENABLED));
  });

  it('keeps webhooks, quota and AlwaysDeny at the end of the running order', () => {
    expect(ALL_ADMISSION_PLUGINS.slice(-4)).toEqual([
      'MutatingAdmissionWebhook',
      'ValidatingAdmissionWebhook',
      'ResourceQuota',
      'AlwaysDeny',
    ]);
  });

  it('has a definition for every known plugin: none is accepted and silently left out of the chain', () => {
    expect(ALL_ADMISSION_PLUGINS.filter((name) => !ADMISSION_PLUGINS.has(name))).toEqual([]);
    expect([...ADMISSION_PLUGINS.keys()].filter((name) => !isAdmissionPlugin(name))).toEqual([]);
  });
});

describe('AdmissionOptions', () => {
  it('registers its flags in the Admission section', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Admission').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['admission-control-config-file', 'string', ''],
      ['disable-admission-plugins', 'strings', ''],
      ['enable-admission-plugins', 'strings', ''],
    ]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({ plugins: DEFAULTS_IN_ORDER, configFile: undefined });
    expect(slice()?.plugins).toHaveLength(18);
  });

  it.each([
    [['--admission-control-config-file=/etc/admission.yaml'], DEFAULTS_IN_ORDER],
    [
      [
        '--enable-admission-plugins=AlwaysDeny,NodeRestriction',
        '--disable-admission-plugins=PodSecurity,ResourceQuota',
      ],
      DEFAULTS_IN_ORDER.flatMap((p) =>
        p === 'PodSecurity' || p === 'ResourceQuota'
          ? []
          : p === 'ServiceAccount'
            ? [p, 'NodeRestriction']
            : [p],
      ).concat('AlwaysDeny'),
    ],
    // Enabling a default plugin changes nothing; disabling one that is off changes nothing either.
    [
      ['--enable-admission-plugins=NamespaceLifecycle', '--disable-admission-plugins=AlwaysPullImages'],
      DEFAULTS_IN_ORDER,
    ],
  ])('%j', (argv, plugins) => {
    const { parsed, o, slice } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    expect(slice()?.plugins).toEqual(plugins);
  });

  it('reads the config file flag', () => {
    const { slice } = setup(['--admission-control-config-file=/etc/admission.yaml']);
    expect(slice()?.configFile).toBe('/etc/admission.yaml');
  });

  it.each([
    [
      ['--enable-admission-plugins=Foo,NodeRestriction,bar'],
      [
        '--enable-admission-plugins: unknown plugin "Foo"',
        '--enable-admission-plugins: unknown plugin "bar"',
      ],
    ],
    [
      ['--disable-admission-plugins=namespacelifecycle'],
      ['--disable-admission-plugins: unknown plugin "namespacelifecycle"'],
    ],
    [
      [
        '--enable-admission-plugins=AlwaysDeny,Priority,AlwaysDeny',
        '--disable-admission-plugins=Priority,AlwaysDeny,Nope',
      ],
      [
        '--disable-admission-plugins: unknown plugin "Nope"',
        '"AlwaysDeny" is in both --enable-admission-plugins and --disable-admission-plugins',
        '"Priority" is in both --enable-admission-plugins and --disable-admission-plugins',
      ],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
