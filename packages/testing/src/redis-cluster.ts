import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startRedisServer, type RedisServer } from './redis-server.js';

const run = promisify(execFile);

export interface RedisClusterOptions {
  /** @default 3 */
  readonly masters?: number;
  /** Replicas per master (1 lets a test fail a master over). @default 0 */
  readonly replicasPerMaster?: number;
  /** How long a node may be unreachable before the others mark it failed. @default 2000 */
  readonly nodeTimeoutMs?: number;
  /** @default 30000 */
  readonly readyTimeoutMs?: number;
}

export interface ClusterNodeInfo {
  readonly id: string;
  readonly port: number;
  readonly role: 'master' | 'replica';
  /** The master's id, for a replica. */
  readonly masterId?: string;
  /** Hash slot ranges a master serves, inclusive. */
  readonly slots: readonly (readonly [number, number])[];
}

export interface RedisCluster {
  /** `redis://127.0.0.1:<port>` of every node, masters first (any of them is a seed). */
  readonly urls: readonly string[];
  readonly servers: readonly RedisServer[];
  /** The cluster as one of its nodes sees it now. */
  nodes(): Promise<ClusterNodeInfo[]>;
  /** The master serving `key`'s hash slot. */
  masterOf(key: string): Promise<ClusterNodeInfo>;
  /** Keys per master (port → count), every key or those matching a SCAN pattern. */
  keysPerMaster(pattern?: string): Promise<Map<number, number>>;
  /**
   * A manual failover of the master on `port`: its replica takes over once it has every write
   * the master acknowledged (CLUSTER FAILOVER), then the cluster agrees on it. Resolves with the
   * port of the new master.
   */
  failover(port: number): Promise<number>;
  /** Stops every node and removes their directories. */
  close(): Promise<void>;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`redis cluster: ${what} within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** CLUSTER NODES lines: `<id> <ip:port@cport> <flags> <master> <ping> <pong> <epoch> <link> <slot>...`. */
export function parseClusterNodes(text: string): ClusterNodeInfo[] {
  const nodes: ClusterNodeInfo[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(' ');
    if (f.length < 8) continue;
    const flags = f[2]!.split(',');
    if (flags.includes('fail') || flags.includes('noaddr')) continue;
    const port = Number(/:(\d+)@/.exec(f[1]!)?.[1]);
    const slots: [number, number][] = [];
    for (const s of f.slice(8)) {
      if (s.startsWith('[')) continue; // a slot being migrated
      const [a, b] = s.split('-');
      slots.push([Number(a), Number(b ?? a)]);
    }
    const master = flags.includes('master');
    nodes.push({
      id: f[0]!,
      port,
      role: master ? 'master' : 'replica',
      ...(master ? {} : { masterId: f[3]! }),
      slots,
    });
  }
  return nodes;
}

/**
 * Starts a throwaway Redis Cluster on 127.0.0.1: `redis-server --cluster-enabled yes` per node on
 * free ports in temporary directories, joined by `redis-cli --cluster create`. Resolves once
 * every node reports cluster_state:ok.
 */
export async function startRedisCluster(opts: RedisClusterOptions = {}): Promise<RedisCluster> {
  const masters = opts.masters ?? 3;
  const replicas = opts.replicasPerMaster ?? 0;
  const readyMs = opts.readyTimeoutMs ?? 30_000;
  const args = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(opts.nodeTimeoutMs ?? 2_000),
    // A lone test cluster must keep serving the slots it has while a node is away.
    '--cluster-require-full-coverage',
    'no',
  ];
  const servers: RedisServer[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(servers.map((s) => s.close()));
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) servers.push(await startRedisServer({ args }));
    // redis-cli makes the first `masters` nodes masters and the rest their replicas.
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...servers.map((s) => `127.0.0.1:${s.port}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    await until('every node agrees and serves every slot', readyMs, async () => {
      for (const s of servers) {
        if (!/cluster_state:ok/.test(await cli(s.port, 'CLUSTER', 'INFO'))) return false;
        const known = parseClusterNodes(await cli(s.port, 'CLUSTER', 'NODES'));
        if (known.length !== servers.length) return false;
        if (known.filter((n) => n.role === 'master').length !== masters) return false;
      }
      return true;
    });
  } catch (err) {
    await close();
    throw err;
  }

  const nodes = async (): Promise<ClusterNodeInfo[]> => {
    let last: unknown;
    for (const s of servers) {
      try {
        return parseClusterNodes(await cli(s.port, 'CLUSTER', 'NODES'));
      } catch (err) {
        last = err; // that node is down: ask another
      }
    }
    throw last;
  };

  return {
    urls: servers.map((s) => s.url),
    servers,
    nodes,
    async masterOf(key) {
      const slot = Number((await cli(servers[0]!.port, 'CLUSTER', 'KEYSLOT', key)).trim());
      const owner = (await nodes()).find(
        (n) => n.role === 'master' && n.slots.some(([a, b]) => slot >= a && slot <= b),
      );
      if (!owner) throw new Error(`redis cluster: no master serves slot ${slot}`);
      return owner;
    },
    async keysPerMaster(pattern) {
      const counts = new Map<number, number>();
      for (const m of (await nodes()).filter((n) => n.role === 'master')) {
        const n =
          pattern === undefined
            ? Number((await cli(m.port, 'DBSIZE')).trim())
            : (await cli(m.port, '--scan', '--pattern', pattern)).split('\n').filter((l) => l !== '').length;
        counts.set(m.port, n);
      }
      return counts;
    },
    async failover(port) {
      const before = await nodes();
      const master = before.find((n) => n.port === port && n.role === 'master');
      if (!master) throw new Error(`redis cluster: no master on port ${port}`);
      const replica = before.find((n) => n.masterId === master.id);
      if (!replica) throw new Error(`redis cluster: the master on port ${port} has no replica`);
      await cli(replica.port, 'CLUSTER', 'FAILOVER');
      await until(`the replica on ${replica.port} takes over from ${port}`, readyMs, async () => {
        for (const s of servers) {
          const view = parseClusterNodes(await cli(s.port, 'CLUSTER', 'NODES'));
          if (view.find((n) => n.id === replica.id)?.role !== 'master') return false;
          if (!/cluster_state:ok/.test(await cli(s.port, 'CLUSTER', 'INFO'))) return false;
        }
        return true;
      });
      return replica.port;
    },
    close,
  };
}
