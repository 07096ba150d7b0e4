import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SchedulerFigures, writeSchedulerCharts } from './scheduler-chart.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('scheduler charts', () => {
  it('puts the bind-only baseline first and one bar per node count, 0 for what a run did not measure', () => {
    const f = new SchedulerFigures();
    f.baseline.set(1000, 900).set(5000, 800);
    f.addPods(1000, 'plain', 600);
    f.addPods(5000, 'plain', 500);
    f.addPods(5000, 'preemption', 40);
    const chart = f.podsChart('note');
    expect(chart?.categories).toEqual(['bind-only baseline', 'plain', 'preemption']);
    expect(chart?.series).toEqual([
      { name: '1,000 nodes', values: [900, 600, 0] },
      { name: '5,000 nodes', values: [800, 500, 40] },
    ]);
    expect(f.cyclesChart('note')).toBeUndefined();
  });

  it('writes only the charts the run has figures for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-chart-'));
    dirs.push(dir);
    const f = new SchedulerFigures();
    f.addCycles(5000, 'preemption', 180);
    expect(writeSchedulerCharts(f, 'a note', dir)).toEqual([join(dir, 'scheduler-cycles.svg')]);
    const svg = readFileSync(join(dir, 'scheduler-cycles.svg'), 'utf8');
    expect(svg).toContain('Scheduling cycles per second, in process');
    expect(svg).toContain('>preemption<');
    expect(svg).toContain('a note');
  });
});
