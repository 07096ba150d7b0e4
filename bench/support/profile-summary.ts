/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`) as the functions with the most self time,
 * as markdown table rows:
 * `npx tsx bench/support/profile-summary.ts <file.cpuprofile> [top=30] [--last=S] [--requests=N]`.
 * `--last` keeps only the samples of the S seconds before the last 0.7 s (the load run, without
 * start-up and shutdown); `--requests` adds the busy time per request.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
}

interface Profile {
  readonly startTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A frame's short name: function, file (after node_modules or the repository's apps/packages), line. */
function frameName(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')
    .replace(/^.*\/(apps|packages)\//, '$1/')
    .replace(/\/(dist|src)\//, '/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

export function summarise(profile: Profile, top: number, lastS?: number, requests?: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const times: number[] = [];
  let t = profile.startTime;
  for (const dt of profile.timeDeltas) times.push((t += dt));
  const end = (times.at(-1) ?? 0) - 700_000;
  const start = lastS === undefined ? -Infinity : end - lastS * 1e6;
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const at = times[i] ?? 0;
    if (lastS !== undefined && (at < start || at > end)) return;
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    total += dt;
    const name = frameName(node);
    self.set(name, (self.get(name) ?? 0) + dt);
  });
  const busy = total - (self.get('(idle)') ?? 0);
  const rows = [...self.entries()]
    .filter(([name]) => name !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
  return [
    `busy ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled` +
      (requests ? `, ${requests} requests: ${(busy / requests).toFixed(0)} us busy per request` : ''),
    '',
    '| self % of busy | function |',
    '| ---: | --- |',
    ...rows.map(([name, us]) => `| ${((us / busy) * 100).toFixed(1)} | \`${name}\` |`),
  ];
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const v = args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
    return v === undefined ? undefined : Number(v);
  };
  const [file, top] = args.filter((a) => !a.startsWith('--'));
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top] [--last=S] [--requests=N]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  console.log(summarise(profile, Number(top ?? 30), flag('last'), flag('requests')).join('\n'));
}
