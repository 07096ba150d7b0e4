import { describe, expect, it } from 'vitest';
import { applyDefaults, mergePluginSet } from './config-defaults.js';
import type { Plugin, PluginSet } from './config-types.js';

const defaults: PluginSet = {
  enabled: [{ name: 'A' }, { name: 'B', weight: 2 }, { name: 'C' }],
  disabled: [],
};
const names = (ps: readonly Plugin[]) =>
  ps.map((p) => (p.weight === undefined ? p.name : `${p.name}:${p.weight}`));

describe('mergePluginSet (kube-scheduler semantics)', () => {
  it.each<[string, { enabled?: Plugin[]; disabled?: Plugin[] } | undefined, string[], string[]]>([
    ['nothing configured keeps the defaults', undefined, ['A', 'B:2', 'C'], []],
    ['a new plugin is appended', { enabled: [{ name: 'X' }] }, ['A', 'B:2', 'C', 'X'], []],
    [
      're-enabling a default replaces it in place',
      { enabled: [{ name: 'X' }, { name: 'B', weight: 9 }] },
      ['A', 'B:9', 'C', 'X'],
      [],
    ],
    [
      're-enabling without a weight drops the default weight',
      { enabled: [{ name: 'B' }] },
      ['A', 'B', 'C'],
      [],
    ],
    ['disabling one default', { disabled: [{ name: 'A' }] }, ['B:2', 'C'], ['A']],
    [
      '"*" disables every default, user plugins stay',
      { enabled: [{ name: 'C' }, { name: 'X' }], disabled: [{ name: '*' }] },
      ['C', 'X'],
      ['*'],
    ],
  ])('%s', (_name, custom, enabled, disabled) => {
    const merged = mergePluginSet(defaults, custom);
    expect(names(merged.enabled)).toEqual(enabled);
    expect(merged.disabled.map((p) => p.name)).toEqual(disabled);
  });

  it('is idempotent, so a written configuration loads back unchanged', () => {
    const once = mergePluginSet(defaults, { enabled: [{ name: 'X' }], disabled: [{ name: 'A' }] });
    const twice = mergePluginSet(defaults, { enabled: [...once.enabled], disabled: [...once.disabled] });
    expect(twice).toEqual(once);
  });
});

describe('applyDefaults', () => {
  it('names a lone profile default-scheduler but leaves several unnamed ones for validation to reject', () => {
    expect(applyDefaults({ profiles: [{}] }).profiles.map((p) => p.schedulerName)).toEqual([
      'default-scheduler',
    ]);
    expect(
      applyDefaults({ profiles: [{}, { schedulerName: 'b' }] }).profiles.map((p) => p.schedulerName),
    ).toEqual(['', 'b']);
  });

  it('turns an empty profile list into the default profile', () => {
    expect(applyDefaults({ profiles: [] }).profiles.map((p) => p.schedulerName)).toEqual([
      'default-scheduler',
    ]);
  });

  it('gives plugin configuration empty args when none are written', () => {
    expect(
      applyDefaults({ profiles: [{ pluginConfig: [{ name: 'NodeResourcesFit' }] }] }).profiles[0]
        ?.pluginConfig,
    ).toEqual([{ name: 'NodeResourcesFit', args: {} }]);
  });
});
