import { StorageError, tooOldResourceVersion } from '../errors.js';
import { commandBuffer, fromRedisValue, text } from './binary-values.js';
import { command, connectWithin, type RedisClient } from './connection.js';
import { mapRedisError } from './redis-errors.js';
import type { EventHub, HubListener, LogEntry, LogEventType } from '../backend.js';
import type { Keyspace } from './keyspace.js';

/** One stream entry, read as bytes: `v` and `p` may be protobuf (see binary-values.ts). */
export function parseLogEntry(rawId: Buffer | string, fields: readonly (Buffer | string)[]): LogEntry {
  const f = new Map<string, Buffer | string>();
  for (let i = 0; i + 1 < fields.length; i += 2) f.set(text(fields[i]), fields[i + 1]!);
  const val = (name: string): string | undefined => {
    const b = f.get(name);
    return b === undefined ? undefined : Buffer.isBuffer(b) ? fromRedisValue(b) : b;
  };
  const id = text(rawId);
  const prev = val('p');
  const value = val('v');
  const k = f.get('k');
  return {
    rv: Number(id.slice(0, id.indexOf('-'))),
    type: text(f.get('t')) as LogEventType,
    key: k === undefined ? '' : text(k),
    ...(value === undefined ? {} : { value }),
    ...(prev === undefined ? {} : { prev, prevRV: Number(text(f.get('r'))) }),
  };
}

type StreamEntries = [id: Buffer | string, fields: (Buffer | string)[]][];

/**
 * XREAD of one stream. RESP2 nests it as [[key, entries]]; ioredis 6 hands it over flattened as
 * [key, entries] (its map-style reply transform), so both shapes are accepted.
 */
export function xreadEntries(reply: unknown): StreamEntries {
  if (!Array.isArray(reply) || reply.length === 0) return [];
  const first: unknown = reply[0];
  if (typeof first === 'string' || Buffer.isBuffer(first)) return (reply[1] ?? []) as StreamEntries;
  return ((first as unknown[])[1] ?? []) as StreamEntries;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * One reader per store instance tails the log stream with XREAD BLOCK on its own connection and
 * fans each entry out to every local watcher, so 100 watchers cost one Redis connection.
 * Entry IDs are consecutive resourceVersions; when the reader comes back after an outage and
 * the first entry skips versions that were compacted meanwhile, events were lost and every
 * watcher gets Expired (they re-list), as a Kubernetes watch does after etcd compaction.
 */
export class RedisWatchHub implements EventHub {
  position = 0;
  private readonly listeners = new Set<HubListener>();
  private started: Promise<void> | undefined;
  private loop: Promise<void> | undefined;
  private conn: RedisClient | undefined;
  private closed = false;

  constructor(
    private readonly main: RedisClient,
    private readonly blocking: () => RedisClient,
    private readonly keys: Keyspace,
    private readonly blockMs: number,
  ) {}

  async subscribe(listener: HubListener): Promise<() => void> {
    await this.start();
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Learns the current position once; a failure is retried by the next subscriber. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      try {
        this.position = Number((await command(this.main, 'GET', [this.keys.rv])) ?? 0);
      } catch (err) {
        this.started = undefined;
        throw mapRedisError(err);
      }
      this.conn = this.blocking();
      await connectWithin(this.conn, this.blockMs);
      this.loop = this.run(this.conn);
    })();
    return this.started;
  }

  private async run(conn: RedisClient): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      try {
        // After an outage the history may have been compacted past us even if no new entry shows
        // it, or the store may have come back older than what we dispatched.
        if (failures > 0) {
          await this.checkRegressed();
          await this.checkCompacted(this.position + 1);
        }
        const reply = await commandBuffer(conn, 'XREAD', [
          'COUNT',
          1000,
          'BLOCK',
          this.blockMs,
          'STREAMS',
          this.keys.log,
          `${this.position}-0`,
        ]);
        failures = 0;
        const entries = xreadEntries(reply).map(([id, fields]) => parseLogEntry(id, fields));
        if (entries.length > 0 && entries[0]!.rv > this.position + 1)
          await this.checkCompacted(entries[0]!.rv);
        for (const entry of entries) this.dispatch(entry);
      } catch {
        if (this.closed) break;
        // Redis is away (or the block timed out on a dead link): back off and resume from position.
        failures++;
        await sleep(Math.min(100 * failures, 1_000));
      }
    }
    // close() has disconnected already unless it ran before this loop began. A second
    // disconnect of an ended connection arms ioredis's 2 s "still open" timer, which nothing
    // clears any more: it kept the process alive for 2 s after a clean shutdown.
    if (conn.status !== 'end') conn.disconnect();
  }

  /**
   * Versions between position and `nextRV` are missing from the log; that is a loss only if they
   * were compacted (a hole left by a failed script is not). Every listener then gets Expired.
   */
  private async checkCompacted(nextRV: number): Promise<void> {
    const compacted = Number((await command(this.main, 'GET', [this.keys.compacted])) ?? 0);
    if (this.position >= compacted) return;
    const err = tooOldResourceVersion(this.position, compacted + 1);
    for (const l of [...this.listeners]) l.onError(err);
    this.position = Math.max(compacted, nextRV - 1);
  }

  /**
   * The store came back with an older revision than the hub dispatched: it lost its newest writes
   * (a replica promoted before it had them after a master crashed, a restart from an AOF without
   * its last second). Versions we dispatched will be given to new writes, so every listener gets
   * Expired (its clients list again) rather than silently missing those writes.
   */
  private async checkRegressed(): Promise<void> {
    const current = Number((await command(this.main, 'GET', [this.keys.rv])) ?? 0);
    if (current >= this.position) return;
    const err = new StorageError(
      'Expired',
      `the store went back from resource version ${this.position} to ${current}; list again`,
      { resourceVersion: String(this.position), oldestResourceVersion: String(current + 1) },
    );
    for (const l of [...this.listeners]) l.onError(err);
    this.position = current;
  }

  private dispatch(entry: LogEntry): void {
    if (entry.rv <= this.position) return;
    this.position = entry.rv;
    for (const l of this.listeners) l.onEntry(entry);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    // Disconnecting rejects the XREAD in flight, so close() does not wait for the block to end.
    this.conn?.disconnect();
    await this.loop;
  }
}
