/**
 * `pnpm bench scheduler --write-chart`: the run's figures as two bar charts in docs/images, one
 * group per workload and one bar per node count: scheduler-pods.svg (pods bound per second end to
 * end, with the bind-only baseline as the first group) and scheduler-cycles.svg (scheduling
 * cycles per second in process). A figure the run did not measure is left out of its chart.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { barChartSvg, type BarChart } from './bar-chart.js';

const CHARTS = join(import.meta.dirname, '..', '..', 'docs', 'images');

/** What one run measured, by node count and then by workload title. */
export class SchedulerFigures {
  /** Bind-only baseline pods/s by node count. */
  readonly baseline = new Map<number, number>();
  /** End-to-end pods/s by node count, then workload. */
  readonly podsPerS = new Map<number, Map<string, number>>();
  /** In-process cycles/s by node count, then workload. */
  readonly cyclesPerS = new Map<number, Map<string, number>>();

  static readonly BASELINE = 'bind-only baseline';

  addPods(nodes: number, workload: string, perS: number): void {
    SchedulerFigures.at(this.podsPerS, nodes).set(workload, perS);
  }

  addCycles(nodes: number, workload: string, perS: number): void {
    SchedulerFigures.at(this.cyclesPerS, nodes).set(workload, perS);
  }

  private static at(m: Map<number, Map<string, number>>, nodes: number): Map<string, number> {
    let inner = m.get(nodes);
    if (!inner) m.set(nodes, (inner = new Map<string, number>()));
    return inner;
  }

  /** The pods/s chart, or undefined when the run had no end-to-end part. */
  podsChart(note: string): BarChart | undefined {
    const nodes = [...this.podsPerS.keys()];
    if (nodes.length === 0) return undefined;
    const workloads = [...new Set(nodes.flatMap((n) => [...(this.podsPerS.get(n)?.keys() ?? [])]))];
    return {
      title: 'Pods bound per second, end to end',
      yLabel: 'pods per second',
      categories: [SchedulerFigures.BASELINE, ...workloads],
      series: nodes.map((n) => ({
        name: `${n.toLocaleString('en-US')} nodes`,
        values: [this.baseline.get(n) ?? 0, ...workloads.map((w) => this.podsPerS.get(n)?.get(w) ?? 0)],
      })),
      note,
    };
  }

  /** The cycles/s chart, or undefined when the run had no in-process part. */
  cyclesChart(note: string): BarChart | undefined {
    const nodes = [...this.cyclesPerS.keys()];
    if (nodes.length === 0) return undefined;
    const workloads = [...new Set(nodes.flatMap((n) => [...(this.cyclesPerS.get(n)?.keys() ?? [])]))];
    return {
      title: 'Scheduling cycles per second, in process',
      yLabel: 'cycles per second',
      categories: workloads,
      series: nodes.map((n) => ({
        name: `${n.toLocaleString('en-US')} nodes`,
        values: workloads.map((w) => this.cyclesPerS.get(n)?.get(w) ?? 0),
      })),
      note,
    };
  }
}

/** Writes the charts the run has figures for; returns the paths written. */
export function writeSchedulerCharts(figures: SchedulerFigures, note: string, dir = CHARTS): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [file, chart] of [
    ['scheduler-pods.svg', figures.podsChart(note)],
    ['scheduler-cycles.svg', figures.cyclesChart(note)],
  ] as const) {
    if (!chart) continue;
    const path = join(dir, file);
    writeFileSync(path, barChartSvg(chart));
    written.push(path);
  }
  return written;
}
