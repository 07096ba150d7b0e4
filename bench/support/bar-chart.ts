/** A grouped bar chart as a standalone SVG (no dependency): one group per category, one bar per series. */

export interface BarChart {
  readonly title: string;
  readonly yLabel: string;
  readonly categories: readonly string[];
  readonly series: readonly { readonly name: string; readonly values: readonly number[] }[];
  readonly note?: string;
}

const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#b07aa1'];

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A round axis maximum above `max`: 1, 2 or 5 times a power of ten. */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((m) => m * p >= max) ?? 10) * p;
}

export function barChartSvg(chart: BarChart): string {
  const width = 640;
  const height = 360;
  const left = 70;
  const right = 20;
  const top = 40;
  // Past four series the legend takes two rows, so longer names do not run into each other.
  const perRow = chart.series.length <= 4 ? chart.series.length : Math.ceil(chart.series.length / 2);
  const legendRows = Math.ceil(chart.series.length / Math.max(1, perRow));
  const bottom = (chart.note ? 90 : 70) + (legendRows - 1) * 16;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const max = niceMax(Math.max(...chart.series.flatMap((s) => s.values)));
  const y = (v: number): number => top + plotH - (v / max) * plotH;
  const groupW = plotW / chart.categories.length;
  const barW = (groupW * 0.7) / chart.series.length;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">${esc(chart.title)}</text>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const v = (max / 5) * i;
    out.push(
      `<line x1="${left}" x2="${width - right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`,
      `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`,
    );
  }
  out.push(
    `<text transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${esc(chart.yLabel)}</text>`,
  );
  chart.categories.forEach((cat, c) => {
    const x0 = left + c * groupW + groupW * 0.15;
    chart.series.forEach((s, i) => {
      const v = s.values[c] ?? 0;
      const x = x0 + i * barW;
      out.push(
        `<rect x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(top + plotH - y(v)).toFixed(1)}" fill="${COLOURS[i % COLOURS.length]}"/>`,
        `<text x="${(x + barW / 2).toFixed(1)}" y="${(y(v) - 4).toFixed(1)}" text-anchor="middle" font-size="10">${Math.round(v)}</text>`,
      );
    });
    out.push(
      `<text x="${(left + c * groupW + groupW / 2).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle">${esc(cat)}</text>`,
    );
  });
  chart.series.forEach((s, i) => {
    const x = left + (i % perRow) * Math.min(200, plotW / perRow);
    const ly = top + plotH + 40 + Math.floor(i / perRow) * 16;
    out.push(
      `<rect x="${x}" y="${ly - 10}" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/>`,
      `<text x="${x + 18}" y="${ly}">${esc(s.name)}</text>`,
    );
  });
  if (chart.note)
    out.push(
      `<text x="${left}" y="${top + plotH + 66 + (legendRows - 1) * 16}" font-size="10" fill="#555">${esc(chart.note)}</text>`,
    );
  out.push('</svg>', '');
  return out.join('\n');
}
