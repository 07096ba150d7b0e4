import { describe, expect, it } from 'vitest';
import { CycleState } from './cycle-state.js';
import { Framework } from './framework.js';
import type { Plugin } from './interface.js';
import {
  PLUGIN_METRICS_NODES_PER_CYCLE,
  type ExtensionPointLabel,
  type FrameworkMetricsSink,
} from './metrics-recorder.js';
import { Registry } from './registry.js';
import { Status } from './status.js';
import { makeNode, makeNodeInfo, makePod, makeProfile } from './testing/fixtures.js';

/** A sink that keeps every observation as `point status profile` or `plugin point status`. */
function recordingSink(): { sink: FrameworkMetricsSink; seen: string[]; seriesMade: () => number } {
  const seen: string[] = [];
  let made = 0;
  const series = (label: string) => {
    made++;
    return {
      observe: (seconds: number) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        seen.push(label);
      },
    };
  };
  return {
    seen,
    seriesMade: () => made,
    sink: {
      extensionPoint: (point, status, profile) => series(`${point} ${status} ${profile}`),
      plugin: (plugin, point: ExtensionPointLabel, status) => series(`${plugin} ${point} ${status}`),
    },
  };
}

const plugins: Plugin[] = [
  { name: 'Sort', less: () => false } as Plugin,
  { name: 'Fit', preFilter: () => undefined, filter: () => undefined } as Plugin,
  {
    name: 'Picky',
    filter: (_s: unknown, _p: unknown, n: { name: string }) =>
      n.name === 'n2' ? Status.unschedulable('no') : undefined,
  } as Plugin,
  { name: 'Scorer', preScore: () => undefined, score: () => 50 } as Plugin,
];

function framework(): Framework {
  const r = new Registry();
  for (const p of plugins) r.register(p.name, () => p);
  return Framework.fromProfile(makeProfile(plugins.map((p) => ({ name: p.name }))), r);
}

const pod = makePod('p');
const nodes = ['n1', 'n2'].map((n) => makeNodeInfo(makeNode(n)));

function cycle(fwk: Framework, sampled: boolean): void {
  const state = new CycleState();
  state.recordPluginMetrics = sampled;
  fwk.runPreFilterPlugins(state, pod);
  for (const n of nodes) fwk.runFilterPlugins(state, pod, n);
  fwk.runPreScorePlugins(state, pod, nodes);
  fwk.runScorePlugins(state, pod, nodes);
}

describe('framework metrics', () => {
  it('records nothing until a sink is set', () => {
    const fwk = framework();
    expect(() => cycle(fwk, true)).not.toThrow();
  });

  it('times every extension point, but plugins only in sampled cycles', () => {
    const fwk = framework();
    const { sink, seen } = recordingSink();
    fwk.recordMetrics(sink);
    cycle(fwk, false);
    expect(seen).toEqual([
      'PreFilter Success default-scheduler',
      'PreScore Success default-scheduler',
      'Score Success default-scheduler',
    ]);
    seen.length = 0;
    cycle(fwk, true);
    expect(seen).toEqual([
      'Fit PreFilter Success',
      'PreFilter Success default-scheduler',
      'Fit Filter Success',
      'Picky Filter Success',
      'Fit Filter Success',
      'Picky Filter Unschedulable',
      'Scorer PreScore Success',
      'PreScore Success default-scheduler',
      'Scorer Score Success',
      'Scorer Score Success',
      'Score Success default-scheduler',
    ]);
  });

  it('creates each series once, however many cycles run', () => {
    const fwk = framework();
    const { sink, seriesMade } = recordingSink();
    fwk.recordMetrics(sink);
    cycle(fwk, true);
    const after = seriesMade();
    for (let i = 0; i < 5; i++) cycle(fwk, true);
    expect(seriesMade()).toBe(after);
  });

  it('labels an extension point with the status it ended with', () => {
    const r = new Registry();
    const reject: Plugin = { name: 'Reject', preFilter: () => Status.unresolvable('never') } as Plugin;
    for (const p of [plugins[0] as Plugin, reject]) r.register(p.name, () => p);
    const fwk = Framework.fromProfile(makeProfile([{ name: 'Sort' }, { name: 'Reject' }]), r);
    const { sink, seen } = recordingSink();
    fwk.recordMetrics(sink);
    fwk.runPreFilterPlugins(new CycleState(), pod);
    expect(seen).toEqual(['PreFilter UnschedulableAndUnresolvable default-scheduler']);
  });

  it('times Filter and Score calls on a bounded number of nodes per sampled cycle', () => {
    const fwk = framework();
    const { sink, seen } = recordingSink();
    fwk.recordMetrics(sink);
    const many = Array.from({ length: PLUGIN_METRICS_NODES_PER_CYCLE + 9 }, (_, i) =>
      makeNodeInfo(makeNode(`m${i}`)),
    );
    const state = new CycleState();
    state.recordPluginMetrics = true;
    for (const n of many) fwk.runFilterPlugins(state, pod, n);
    const scored = fwk.runScorePlugins(state, pod, many);
    expect(scored.ok && scored.totals.length).toBe(many.length);
    expect(seen.filter((l) => l === 'Fit Filter Success')).toHaveLength(PLUGIN_METRICS_NODES_PER_CYCLE);
    expect(seen.filter((l) => l === 'Scorer Score Success')).toHaveLength(PLUGIN_METRICS_NODES_PER_CYCLE);
  });
});
