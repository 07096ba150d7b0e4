/**
 * Redis CPU per create of two builds' write scripts, on a Redis of its own: turns of 20,000
 * creates (pipelined EVALSHA, Event-sized values) alternating between this checkout's
 * `packages/storage/dist` and another's, each on its own prefix; prints the median µs per create.
 * `npx tsx bench/support/write-script-ab.ts /work/base`
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startRedisServer } from '@keel/testing';
import { EVENT } from './bench-event.js';
import { cpuSeconds } from './process-stats.js';

interface Build {
  readonly name: string;
  readonly writeScript: { sha: string; source: string };
  readonly keyspace: (p: string) => Record<string, string> & { object(k: string): string };
  readonly newLayout: boolean;
}

async function load(root: string, name: string): Promise<Build> {
  const dist = join(root, 'packages', 'storage', 'dist', 'redis');
  const scripts = (await import(join(dist, 'scripts.js'))) as { writeScript: Build['writeScript'] };
  const ks = (await import(join(dist, 'keyspace.js'))) as { keyspace: Build['keyspace'] };
  return {
    name,
    writeScript: scripts.writeScript,
    keyspace: ks.keyspace,
    newLayout: 'versions' in ks.keyspace('/x'),
  };
}

const builds = [
  await load(join(import.meta.dirname, '..', '..'), 'this'),
  await load(process.argv[2]!, 'other'),
];
const redis = await startRedisServer();
const client = new Redis(redis.url);
const per: Record<string, number[]> = { this: [], other: [] };
try {
  for (const b of builds) await client.script('LOAD', b.writeScript.source);
  for (let turn = 0; turn < 8; turn++)
    for (const b of builds) {
      const k = b.keyspace(`/ab-${b.name}-${turn}`);
      const cpu = cpuSeconds(redis.pid);
      const p = client.pipeline();
      for (let i = 0; i < 20_000; i++) {
        const key = `/events/default/e-${i}`;
        const keys = [k['rv']!, k['index']!, k['expiry']!, k['log']!, k.object(key)];
        if (b.newLayout) keys.push(k['versions']!, k['versionsAt']!);
        p.evalsha(b.writeScript.sha, keys.length, ...keys, 'create', key, EVENT, '', '3600000', '300000');
      }
      await p.exec();
      per[b.name]!.push(((cpuSeconds(redis.pid) - cpu) * 1e6) / 20_000);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const b of builds)
    console.log(
      `${b.name}: ${median(per[b.name]!).toFixed(2)} µs Redis CPU per create (turns ${per[b.name]!.map((x) => x.toFixed(1)).join(' ')})`,
    );
} finally {
  await client.quit();
  await redis.stop();
}
