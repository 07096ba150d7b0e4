import { describe, expect, it } from 'vitest';
import { CycleState } from './cycle-state.js';
import { Framework } from './framework.js';
import type { Plugin, PluginArgs } from './interface.js';
import type { NodeInfo } from './node-info.js';
import { Registry } from './registry.js';
import { Code, Status, type MaybeStatus } from './status.js';
import { makeNode, makeNodeInfo, makePod, makeProfile } from './testing/fixtures.js';

/** A configurable plugin: each method exists only when given. */
function fake(name: string, methods: Record<string, unknown>): Plugin {
  return { name, ...methods };
}

const sort = fake('Sort', { less: () => false });
const pod = makePod('p');
const nodes = ['n1', 'n2', 'n3'].map((n) => makeNodeInfo(makeNode(n)));

function registryOf(...plugins: Plugin[]): Registry {
  const r = new Registry();
  for (const p of [sort, ...plugins]) r.register(p.name, () => p);
  return r;
}

const names = (ps: readonly { name: string }[]) => ps.map((p) => p.name);
const mp = (...ns: string[]) => ns.map((name) => ({ name }));

describe('Framework.fromProfile', () => {
  const F1 = fake('F1', { filter: () => undefined, preFilter: () => undefined });
  const F2 = fake('F2', { filter: () => undefined, score: () => 0 });
  const S1 = fake('S1', { score: () => 0 });
  const registry = registryOf(F1, F2, S1);

  it.each([
    [
      'multiPoint expands to every point a plugin implements',
      makeProfile(mp('Sort', 'F1', 'F2')),
      ['F1', 'F2'],
      ['F1'],
      ['F2'],
    ],
    [
      'a point disables a multiPoint plugin',
      makeProfile(mp('Sort', 'F1', 'F2'), { filter: { enabled: [], disabled: [{ name: 'F1' }] } }),
      ['F2'],
      ['F1'],
      ['F2'],
    ],
    [
      '`*` disables every multiPoint plugin at that point but keeps explicit ones',
      makeProfile(mp('Sort', 'F1', 'F2'), {
        score: { enabled: [{ name: 'S1' }], disabled: [{ name: '*' }] },
      }),
      ['F1', 'F2'],
      ['F1'],
      ['S1'],
    ],
    [
      'an explicit entry overrides the multiPoint one and comes first',
      makeProfile(mp('Sort', 'F1', 'F2'), { filter: { enabled: [{ name: 'F2' }], disabled: [] } }),
      ['F2', 'F1'],
      ['F1'],
      ['F2'],
    ],
    [
      'explicit entries that are not in multiPoint come last',
      makeProfile(mp('Sort', 'F2'), { filter: { enabled: [{ name: 'F1' }], disabled: [] } }),
      ['F2', 'F1'],
      [],
      ['F2'],
    ],
  ])('%s', (_name, profile, filters, preFilters, scores) => {
    const fwk = Framework.fromProfile(profile, registry);
    expect(names(fwk.filterPlugins)).toEqual(filters);
    expect(names(fwk.preFilterPlugins)).toEqual(preFilters);
    expect(fwk.scorePlugins.map((s) => s.plugin.name)).toEqual(scores);
    expect(names(fwk.queueSortPlugins)).toEqual(['Sort']);
  });

  it('takes explicit score weights over multiPoint ones, and reads 0 or unset as 1', () => {
    const fwk = Framework.fromProfile(
      makeProfile([{ name: 'Sort' }, { name: 'F2', weight: 3 }, { name: 'S1', weight: 0 }], {
        score: { enabled: [{ name: 'F2', weight: 7 }], disabled: [] },
      }),
      registry,
    );
    expect(fwk.scorePlugins.map((s) => [s.plugin.name, s.weight])).toEqual([
      ['F2', 7],
      ['S1', 1],
    ]);
  });

  it.each([
    [
      'an unregistered multiPoint plugin',
      makeProfile(mp('Sort', 'Nope')),
      'PreFilterPlugin "Nope" does not exist',
    ],
    [
      'an unregistered explicit plugin',
      makeProfile(mp('Sort'), { score: { enabled: [{ name: 'Nope' }], disabled: [] } }),
      'ScorePlugin "Nope" does not exist',
    ],
    [
      'a plugin enabled at a point it does not implement',
      makeProfile(mp('Sort'), { filter: { enabled: [{ name: 'S1' }], disabled: [] } }),
      'plugin "S1" does not extend FilterPlugin plugin',
    ],
    [
      'a plugin enabled twice at a point',
      makeProfile(mp('Sort'), { filter: { enabled: mp('F1', 'F1'), disabled: [] } }),
      'plugin "F1" already registered as "FilterPlugin"',
    ],
    [
      'a plugin twice in multiPoint',
      makeProfile(mp('Sort', 'F1', 'F1')),
      'plugin "F1" already registered as "PreFilterPlugin"',
    ],
    ['no queue sort plugin', makeProfile(mp('F1')), 'no queue sort plugin is enabled'],
  ])('refuses %s', (_name, profile, message) => {
    expect(() => Framework.fromProfile(profile, registry)).toThrow(message);
  });

  it('refuses a factory whose plugin answers to another name', () => {
    const r = new Registry().register('Sort', () => sort).register('Alias', () => F1);
    expect(() => Framework.fromProfile(makeProfile(mp('Sort', 'Alias')), r)).toThrow(
      'plugin "Alias" reports its name as "F1"',
    );
  });

  it("hands each factory its pluginConfig args and the profile's name", () => {
    const seen: [PluginArgs, string][] = [];
    const r = registryOf().register('Cfg', (args, handle) => {
      seen.push([args, handle.profileName]);
      return fake('Cfg', { filter: () => undefined });
    });
    Framework.fromProfile(
      makeProfile(
        mp('Sort', 'Cfg'),
        {},
        { schedulerName: 'p1', pluginConfig: [{ name: 'Cfg', args: { x: 1 } }] },
      ),
      r,
    );
    expect(seen).toEqual([[{ x: 1 }, 'p1']]);
  });
});

describe('Framework runners', () => {
  it('stops filtering a node at the first rejection and names the plugin', () => {
    const calls: string[] = [];
    const f = (name: string, s: MaybeStatus) => fake(name, { filter: () => (calls.push(name), s) });
    const fwk = Framework.fromProfile(
      makeProfile(mp('Sort', 'A', 'B', 'C')),
      registryOf(f('A', undefined), f('B', Status.unschedulable('nope', 'never')), f('C', undefined)),
    );
    const s = fwk.runFilterPlugins(new CycleState(), pod, nodes[0] as NodeInfo);
    expect(calls).toEqual(['A', 'B']);
    expect([s?.code, s?.plugin, s?.message()]).toEqual([Code.Unschedulable, 'B', 'nope, never']);
  });

  it('skips the Filter of a plugin whose PreFilter returned Skip', () => {
    const p = fake('P', { preFilter: () => Status.skip(), filter: () => Status.unresolvable('x') });
    const fwk = Framework.fromProfile(makeProfile(mp('Sort', 'P')), registryOf(p));
    const state = new CycleState();
    expect(fwk.runPreFilterPlugins(state, pod)).toBeUndefined();
    expect(fwk.runFilterPlugins(state, pod, nodes[0] as NodeInfo)).toBeUndefined();
  });

  it.each([
    [
      'PreFilter rejects',
      { preFilter: () => Status.unresolvable('no way') },
      Code.UnschedulableAndUnresolvable,
      'no way',
    ],
    [
      'PreFilter fails',
      { preFilter: () => Status.of(Code.Error, 'boom') },
      Code.Error,
      'running PreFilter plugin "P": boom',
    ],
    [
      'PreFilter throws',
      {
        preFilter: () => {
          throw new Error('bang');
        },
      },
      Code.Error,
      'running PreFilter plugin "P": bang',
    ],
  ])('%s', (_name, methods, code, message) => {
    const fwk = Framework.fromProfile(makeProfile(mp('Sort', 'P')), registryOf(fake('P', methods)));
    const s = fwk.runPreFilterPlugins(new CycleState(), pod);
    expect([s?.code, s?.plugin, s?.message()]).toEqual([code, 'P', message]);
  });

  it('turns a Filter error or exception into an Error status', () => {
    const thrower = fake('T', {
      filter: () => {
        throw new Error('bad node');
      },
    });
    const fwk = Framework.fromProfile(makeProfile(mp('Sort', 'T')), registryOf(thrower));
    const s = fwk.runFilterPlugins(new CycleState(), pod, nodes[0] as NodeInfo);
    expect([s?.code, s?.message()]).toEqual([Code.Error, 'running "T" filter plugin: bad node']);
  });

  it('normalizes each plugin, multiplies by its weight and sums', () => {
    const byName: Record<string, number> = { n1: 1, n2: 2, n3: 4 };
    const raw = fake('Raw', {
      score: (_s: CycleState, _p: unknown, n: NodeInfo) => byName[n.name],
      normalizeScores: (scores: number[]) => scores.forEach((s, i) => (scores[i] = s * 25)),
    });
    const flat = fake('Flat', { score: () => 10 });
    const fwk = Framework.fromProfile(
      makeProfile([{ name: 'Sort' }, { name: 'Raw', weight: 2 }, { name: 'Flat', weight: 3 }]),
      registryOf(raw, flat),
    );
    expect(fwk.runScorePlugins(new CycleState(), pod, nodes)).toEqual({ ok: true, totals: [80, 130, 230] });
  });

  it('skips the Score of a plugin whose PreScore returned Skip', () => {
    const p = fake('P', { preScore: () => Status.skip(), score: () => 50 });
    const fwk = Framework.fromProfile(makeProfile(mp('Sort', 'P')), registryOf(p));
    const state = new CycleState();
    expect(fwk.runPreScorePlugins(state, pod, nodes)).toBeUndefined();
    expect(fwk.runScorePlugins(state, pod, nodes)).toEqual({ ok: true, totals: [0, 0, 0] });
  });

  it.each([
    [101, 'plugin "P" returns an invalid score 101, it should in the range of [0, 100] after normalizing'],
    [-1, 'plugin "P" returns an invalid score -1, it should in the range of [0, 100] after normalizing'],
    [1.5, 'plugin "P" returns an invalid score 1.5, it should in the range of [0, 100] after normalizing'],
  ])('rejects the score %d', (score, message) => {
    const fwk = Framework.fromProfile(
      makeProfile(mp('Sort', 'P')),
      registryOf(fake('P', { score: () => score })),
    );
    const out = fwk.runScorePlugins(new CycleState(), pod, nodes);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.status.message()).toBe(`running Normalize on Score plugins: ${message}`);
  });

  it('reports a Score exception as an error', () => {
    const p = fake('P', {
      score: () => {
        throw new Error('no data');
      },
    });
    const out = Framework.fromProfile(makeProfile(mp('Sort', 'P')), registryOf(p)).runScorePlugins(
      new CycleState(),
      pod,
      nodes,
    );
    expect(out.ok ? '' : out.status.message()).toBe('running Score plugins: plugin "P" failed with: no data');
  });

  it('returns the first PreEnqueue rejection with its plugin', () => {
    const gate = fake('Gate', {
      preEnqueue: (p: { metadata: { name?: string } }) =>
        p.metadata.name === 'held' ? Status.unresolvable('held') : undefined,
    });
    const fwk = Framework.fromProfile(makeProfile(mp('Sort', 'Gate')), registryOf(gate));
    expect(fwk.runPreEnqueuePlugins(pod)).toBeUndefined();
    const s = fwk.runPreEnqueuePlugins(makePod('held'));
    expect([s?.plugin, s?.message()]).toEqual(['Gate', 'held']);
  });

  it('exposes the queue sort as a function', () => {
    const byPrio = fake('Sort', {
      less: (a: { attempts: number }, b: { attempts: number }) => a.attempts < b.attempts,
    });
    const fwk = Framework.fromProfile(
      makeProfile(mp('Sort')),
      new Registry().register('Sort', () => byPrio),
    );
    const less = fwk.queueSortLess();
    const info = (attempts: number) => ({
      pod,
      key: 'k',
      timestamp: 0,
      attempts,
      initialAttemptTimestamp: undefined,
      unschedulablePlugins: new Set<string>(),
      gated: false,
    });
    expect([less(info(1), info(2)), less(info(2), info(1))]).toEqual([true, false]);
  });
});
