/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`) as the functions with the most self time:
 * `npx tsx bench/support/profile-summary.ts <file.cpuprofile> [top=30]`. Prints markdown table rows.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A frame's short name: function, file (after the last node_modules or the repository's apps/packages), line. */
function frameName(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')
    .replace(/^.*\/(apps|packages)\//, '$1/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

export function summarise(profile: Profile, top: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    total += dt;
    const name = frameName(node);
    self.set(name, (self.get(name) ?? 0) + dt);
  });
  const idle = self.get('(idle)') ?? 0;
  const busy = total - idle;
  const rows = [...self.entries()]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  return [
    `busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled`,
    '',
    '| self % of busy | self ms | function |',
    '| ---: | ---: | --- |',
    ...rows.map(
      ([name, t]) => `| ${((t / busy) * 100).toFixed(1)} | ${(t / 1e3).toFixed(0)} | \`${name}\` |`,
    ),
  ];
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  console.log(summarise(profile, Number(top ?? 30)).join('\n'));
}
