import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFileError, loadAdmissionConfiguration, prepareAdmission } from './index.js';
import { DEFAULT_FLAGS } from './testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-admission-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const ERL = `apiVersion: eventratelimit.admission.k8s.io/v1alpha1
kind: Configuration
limits:
- type: Namespace
  qps: 5
  burst: 10
`;

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigFileError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigFileError');
}

describe('loadAdmissionConfiguration', () => {
  it('takes a configuration inline or from a path relative to the file', () => {
    file('erl.yaml', ERL);
    const path = file(
      'admission.yaml',
      `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: EventRateLimit
  path: erl.yaml
- name: PodNodeSelector
  configuration:
    podNodeSelectorPluginConfig: {clusterDefaultNodeSelector: "zone=a"}
`,
    );
    const configs = loadAdmissionConfiguration(path);
    expect(configs.get('EventRateLimit')).toEqual({
      value: {
        apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1',
        kind: 'Configuration',
        limits: [{ type: 'Namespace', qps: 5, burst: 10 }],
      },
      source: `EventRateLimit configuration file ${join(dir, 'erl.yaml')}`,
    });
    expect(configs.get('PodNodeSelector')).toEqual({
      value: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'zone=a' } },
      source: `admission control config file ${path}: plugins[1].configuration`,
    });
  });

  it.each([
    ['kind: AdmissionConfiguration\nplugins: []\n', 'apiVersion: required'],
    [
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugin: []\n',
      'plugin: unknown field',
    ],
    [
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- path: x.yaml\n',
      'plugins[0].name: required',
    ],
    [
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: A\n  configuration: 3\n',
      'plugins[0].configuration: expected a mapping, got number 3',
    ],
    [
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: A\n  path: a\n  configuration: {}\n',
      'plugins[0]: give either path or configuration, not both',
    ],
    [
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: A, configuration: {}}\n- {name: A, configuration: {}}\n',
      'plugins[1].name: plugin "A" is configured twice',
    ],
    ['apiVersion: [\n', 'not valid YAML or JSON: '],
  ])('refuses %j with one line naming the file and the field', (text, problem) => {
    const path = file('bad.yaml', text);
    const message = errorOf(() => loadAdmissionConfiguration(path));
    expect(message.startsWith(`admission control config file ${path}: `)).toBe(true);
    expect(message).toContain(problem);
    expect(message).not.toContain('\n');
  });

  it('names a missing file, and a missing plugin file by its plugin', () => {
    expect(errorOf(() => loadAdmissionConfiguration(join(dir, 'none.yaml')))).toBe(
      `admission control config file ${join(dir, 'none.yaml')}: cannot be read: ENOENT`,
    );
    const path = file(
      'missing-path.yaml',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- {name: EventRateLimit, path: gone.yaml}\n',
    );
    expect(errorOf(() => loadAdmissionConfiguration(path))).toBe(
      `EventRateLimit configuration file ${join(dir, 'gone.yaml')}: cannot be read: ENOENT`,
    );
  });
});

describe('prepareAdmission with a configuration file', () => {
  const configFile = (plugins: string) =>
    file(
      'prepared.yaml',
      `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n${plugins}`,
    );

  it('refuses a configuration for a plugin that takes none, instead of ignoring it', () => {
    const path = configFile('- {name: AlwaysDeny, configuration: {a: 1}}\n');
    expect(errorOf(() => prepareAdmission(['AlwaysDeny'], { configFile: path, flags: DEFAULT_FLAGS }))).toBe(
      `admission control config file ${path}: plugins[0].configuration: AlwaysDeny takes no configuration`,
    );
  });

  it('warns about a configuration for a plugin that is not enabled', () => {
    const path = configFile('- {name: AlwaysDeny, configuration: {a: 1}}\n');
    expect(prepareAdmission(['AlwaysAdmit'], { configFile: path, flags: DEFAULT_FLAGS }).warnings).toEqual([
      `admission control config file ${path}: plugins[0].configuration: configuration for AlwaysDeny, which is not enabled, is not used`,
    ]);
  });

  it.each([
    ['', 'EventRateLimit needs a configuration'],
    [
      '- name: EventRateLimit\n  configuration: {apiVersion: eventratelimit.admission.k8s.io/v1alpha1, kind: Configuration, limits: []}\n',
      'plugins[0].configuration: limits: must not be empty',
    ],
    [
      '- name: EventRateLimit\n  configuration:\n    apiVersion: eventratelimit.admission.k8s.io/v1alpha1\n    kind: Configuration\n    limits: [{type: Pod, qps: 0, burst: 1.5, cacheSize: -1}]\n',
      'limits[0].type: expected one of Server, Namespace, User, SourceAndObject, got string "Pod"; limits[0].qps: must be positive; limits[0].burst: expected an integer, got number 1.5; limits[0].cacheSize: must not be negative',
    ],
  ])('checks EventRateLimit configuration %#', (plugins, problem) => {
    const path = plugins ? configFile(plugins) : undefined;
    expect(
      errorOf(() => prepareAdmission(['EventRateLimit'], { configFile: path, flags: DEFAULT_FLAGS })),
    ).toContain(problem);
  });
});
