import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSchedulerConfigFile } from './config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-extender-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
const HEADER = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nextenders:\n';

function load(extenders: string) {
  const path = join(dir, `config-${++counter}.yaml`);
  writeFileSync(path, HEADER + extenders);
  return { path, result: loadSchedulerConfigFile(path) };
}

/** The errors without the `<file>: ` prefix every line carries. */
function errorsOf(extenders: string): string[] {
  const { path, result } = load(extenders);
  return (result.errors ?? []).map((e) => {
    expect(e.startsWith(`${path}: `)).toBe(true);
    return e.slice(path.length + 2);
  });
}

describe('extenders in the configuration file', () => {
  it('reads every field of a full extender', () => {
    const { result } = load(
      [
        '- urlPrefix: https://127.0.0.1:8443/scheduler',
        '  filterVerb: filter',
        '  preemptVerb: preempt',
        '  prioritizeVerb: prioritize',
        '  weight: 3',
        '  bindVerb: bind',
        '  enableHTTPS: true',
        '  tlsConfig:',
        '    insecure: false',
        '    serverName: extender.example',
        '    certFile: /etc/c.crt',
        '    keyFile: /etc/c.key',
        '    caFile: /etc/ca.crt',
        '    certData: QUJD',
        '    keyData: REVG',
        '    caData: R0hJ',
        '  httpTimeout: 1m30s',
        '  nodeCacheCapable: true',
        '  managedResources:',
        '  - name: example.com/gpu',
        '    ignoredByScheduler: true',
        '  ignorable: true',
        '',
      ].join('\n'),
    );
    expect(result.errors).toBeUndefined();
    const e = result.config?.extenders[0];
    expect({ ...e, httpTimeout: e?.httpTimeout.toString() }).toEqual({
      urlPrefix: 'https://127.0.0.1:8443/scheduler',
      filterVerb: 'filter',
      preemptVerb: 'preempt',
      prioritizeVerb: 'prioritize',
      weight: 3,
      bindVerb: 'bind',
      enableHTTPS: true,
      tlsConfig: {
        insecure: false,
        serverName: 'extender.example',
        certFile: '/etc/c.crt',
        keyFile: '/etc/c.key',
        caFile: '/etc/ca.crt',
        certData: 'QUJD',
        keyData: 'REVG',
        caData: 'R0hJ',
      },
      httpTimeout: '1m30s',
      nodeCacheCapable: true,
      managedResources: [{ name: 'example.com/gpu', ignoredByScheduler: true }],
      ignorable: true,
    });
  });

  it.each([
    [
      'an unknown field',
      '- urlPrefix: http://x\n  filterverb: f\n',
      ['extenders[0].filterverb: unknown field'],
    ],
    ['a missing urlPrefix', '- filterVerb: f\n', ['extenders[0].urlPrefix: Required']],
    [
      'a bad duration',
      '- urlPrefix: http://x\n  httpTimeout: soon\n',
      ['extenders[0].httpTimeout: time: invalid duration "soon"'],
    ],
    [
      'bytes that are not base64',
      '- urlPrefix: http://x\n  tlsConfig:\n    caData: "-----BEGIN"\n',
      ['extenders[0].tlsConfig.caData: must be base64 (PEM bytes, as Go encodes []byte)'],
    ],
    [
      'a prioritizer without weight',
      '- urlPrefix: http://x\n  prioritizeVerb: p\n- urlPrefix: http://y\n  prioritizeVerb: p\n  weight: -2\n',
      [
        'extenders[0].weight: Invalid value: 0: must have a positive weight applied to it',
        'extenders[1].weight: Invalid value: -2: must have a positive weight applied to it',
      ],
    ],
    [
      'two binders',
      '- urlPrefix: http://x\n  bindVerb: b\n- urlPrefix: http://y\n  bindVerb: b\n',
      [
        'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind',
      ],
    ],
    [
      'a native resource',
      '- urlPrefix: http://x\n  managedResources:\n  - name: cpu\n',
      ['extenders[0].managedResources[0].name: Invalid value: "cpu": is an invalid extended resource name'],
    ],
    [
      'a name that is not qualified',
      '- urlPrefix: http://x\n  managedResources:\n  - name: example.com/gpu!\n',
      [
        `extenders[0].managedResources[0].name: Invalid value: "example.com/gpu!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'a resource managed twice',
      '- urlPrefix: http://x\n  managedResources:\n  - name: example.com/gpu\n- urlPrefix: http://y\n  managedResources:\n  - name: example.com/gpu\n',
      [
        'extenders[1].managedResources[0].name: Invalid value: "example.com/gpu": duplicate extender managed resource name',
      ],
    ],
  ])('refuses %s, naming the file and the field', (_name, body, want) => {
    expect(errorsOf(body)).toEqual(want);
  });

  it('accepts a weight without a prioritize verb, and one binder', () => {
    const { result } = load('- urlPrefix: http://x\n  bindVerb: b\n- urlPrefix: http://y\n  weight: 0\n');
    expect(result.errors).toBeUndefined();
  });
});
