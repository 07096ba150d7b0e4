import { describe, expect, it } from 'vitest';
import { Framework } from '../framework/framework.js';
import type { BindPlugin } from '../framework/interface.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KNOWN_PLUGINS,
  applyDefaults,
  defaultSchedulerConfiguration,
  loadSchedulerConfigFile,
} from '../options/index.js';
import { newInTreeRegistry } from './default-registry.js';

const binder: BindPlugin = { name: 'DefaultBinder', bind: () => Promise.resolve(undefined) };
const names = (ps: readonly { name: string }[]) => ps.map((p) => p.name);

describe('newInTreeRegistry', () => {
  it('registers every known plugin except the binder', () => {
    expect(newInTreeRegistry().names().sort()).toEqual(
      KNOWN_PLUGINS.filter((n) => n !== 'DefaultBinder').sort(),
    );
  });

  it("builds kube's default profile", () => {
    const profile = defaultSchedulerConfiguration().profiles[0];
    if (!profile) throw new Error('no default profile');
    const fwk = Framework.fromProfile(
      profile,
      newInTreeRegistry().register('DefaultBinder', () => binder),
    );
    expect(names(fwk.preEnqueuePlugins)).toEqual(['SchedulingGates']);
    expect(names(fwk.queueSortPlugins)).toEqual(['PrioritySort']);
    expect(names(fwk.preFilterPlugins)).toEqual([
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread',
      'InterPodAffinity',
    ]);
    expect(names(fwk.filterPlugins)).toEqual([
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread',
      'InterPodAffinity',
    ]);
    expect(names(fwk.preScorePlugins)).toEqual([
      'TaintToleration',
      'NodeAffinity',
      'NodeResourcesFit',
      'VolumeBinding',
      'PodTopologySpread',
      'InterPodAffinity',
      'NodeResourcesBalancedAllocation',
      'ImageLocality',
    ]);
    // kube 1.33's v1 defaults, minus the plugins Keel lacks.
    expect(fwk.scorePlugins.map((s) => [s.plugin.name, s.weight])).toEqual([
      ['TaintToleration', 3],
      ['NodeAffinity', 2],
      ['NodeResourcesFit', 1],
      ['VolumeBinding', 1],
      ['PodTopologySpread', 2],
      ['InterPodAffinity', 2],
      ['NodeResourcesBalancedAllocation', 1],
      ['ImageLocality', 1],
    ]);
    expect(names(fwk.reservePlugins)).toEqual(['VolumeBinding']);
    expect(names(fwk.preBindPlugins)).toEqual(['VolumeBinding']);
    expect(names(fwk.bindPlugins)).toEqual(['DefaultBinder']);
    expect(fwk.profileName).toBe('default-scheduler');
  });

  it('needs the caller to register DefaultBinder for the default profile', () => {
    const profile = defaultSchedulerConfiguration().profiles[0];
    if (!profile) throw new Error('no default profile');
    expect(() => Framework.fromProfile(profile, newInTreeRegistry())).toThrow(
      'PreFilterPlugin "DefaultBinder" does not exist',
    );
  });

  it('turns the volume plugins off per profile, everywhere or at one point', () => {
    const config = applyDefaults({
      profiles: [
        {
          plugins: {
            multiPoint: { disabled: [{ name: 'VolumeBinding' }] },
            filter: { disabled: [{ name: 'VolumeZone' }] },
          },
        },
      ],
    });
    const profile = config.profiles[0];
    if (!profile) throw new Error('no profile');
    const fwk = Framework.fromProfile(
      profile,
      newInTreeRegistry().register('DefaultBinder', () => binder),
    );
    const all = [fwk.preFilterPlugins, fwk.filterPlugins, fwk.reservePlugins, fwk.preBindPlugins].map(names);
    expect(all.flat()).not.toContain('VolumeBinding');
    expect(names(fwk.preFilterPlugins)).toContain('VolumeZone');
    expect(names(fwk.filterPlugins)).not.toContain('VolumeZone');
    expect(names(fwk.filterPlugins)).toContain('NodeVolumeLimits');
  });

  it('builds a v1beta1 profile with its own extension-point sets and weights', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-registry-'));
    const path = join(dir, 'v1beta1.yaml');
    writeFileSync(
      path,
      'apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\n' +
        'profiles:\n- plugins:\n    score:\n      disabled: [{name: NodeResourcesLeastAllocated}]\n' +
        '      enabled: [{name: NodeResourcesMostAllocated, weight: 3}]\n',
    );
    const loaded = loadSchedulerConfigFile(path);
    rmSync(dir, { recursive: true, force: true });
    const profile = loaded.config?.profiles[0];
    if (!profile) throw new Error(loaded.errors?.join('; ') ?? 'no profile');
    const fwk = Framework.fromProfile(
      profile,
      newInTreeRegistry().register('DefaultBinder', () => binder),
    );
    expect(names(fwk.preScorePlugins)).toEqual(['InterPodAffinity', 'PodTopologySpread', 'TaintToleration']);
    expect(fwk.scorePlugins.map((s) => [s.plugin.name, s.weight])).toEqual([
      ['NodeResourcesBalancedAllocation', 1],
      ['ImageLocality', 1],
      ['InterPodAffinity', 1],
      ['NodeAffinity', 1],
      ['PodTopologySpread', 2],
      ['TaintToleration', 1],
      ['NodeResourcesFit', 3],
    ]);
  });
});
