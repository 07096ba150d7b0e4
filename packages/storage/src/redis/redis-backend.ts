import { storageTimeout } from '../errors.js';
import {
  commandBuffer,
  fromRedisValue,
  text,
  toRedisValue,
  type BufferCommandName,
} from './binary-values.js';
import { command, type RedisClient } from './connection.js';
import { pageScript, valuesScript } from './page-script.js';
import { isNoScript, mapRedisError } from './redis-errors.js';
import { compactScript, readLogScript, reapScript, writeScript, type LuaScript } from './scripts.js';
import { parseLogEntry, RedisWatchHub } from './watch-hub.js';
import type {
  KeyVersion,
  LogRead,
  PageRequest,
  PageResult,
  RawObject,
  StorageBackend,
  ValuesRead,
  WriteOp,
  WriteResult,
} from '../backend.js';
import type { Keyspace } from './keyspace.js';

export interface RedisBackendOptions {
  readonly client: RedisClient;
  /** Closed with the backend; the caller keeps ownership of `client` unless it is listed here. */
  readonly owned: readonly RedisClient[];
  readonly keys: Keyspace;
  readonly blocking: () => RedisClient;
  readonly blockMs: number;
  readonly expirySafetyMarginMs: number;
}

/** Objects reaped per script run: bounds how long one run holds Redis. */
const reapBatch = 500;

/** The Redis primitives; every write and every snapshot read is one Lua script. */
export class RedisBackend implements StorageBackend {
  readonly hub: RedisWatchHub;
  private readonly client: RedisClient;
  private readonly keys: Keyspace;

  constructor(private readonly opts: RedisBackendOptions) {
    this.client = opts.client;
    this.keys = opts.keys;
    this.hub = new RedisWatchHub(opts.client, opts.blocking, opts.keys, opts.blockMs);
  }

  /** One command; `bytes` answers bulk replies as Buffers (for replies that carry values). */
  private async call(name: string, args: (string | number | Buffer)[], bytes = false): Promise<unknown> {
    try {
      return await (bytes
        ? commandBuffer(this.client, name as BufferCommandName, args)
        : command(this.client, name, args as (string | number)[]));
    } catch (err) {
      throw mapRedisError(err);
    }
  }

  /** EVALSHA, loading the script with EVAL when Redis does not know it (first use, restart). */
  private async eval(
    script: LuaScript,
    keys: string[],
    args: (string | number | Buffer)[],
    bytes = false,
  ): Promise<unknown> {
    try {
      const all = [script.sha, keys.length, ...keys, ...args];
      return await (bytes
        ? commandBuffer(this.client, 'EVALSHA', all)
        : command(this.client, 'EVALSHA', all as (string | number)[]));
    } catch (err) {
      if (!isNoScript(err)) throw mapRedisError(err);
    }
    return this.call('EVAL', [script.source, keys.length, ...keys, ...args], bytes);
  }

  async read(key: string): Promise<RawObject | undefined> {
    const [value, rv] = (await this.call('HMGET', [this.keys.object(key), 'v', 'rv'], true)) as [
      Buffer | null,
      Buffer | null,
    ];
    return value === null ? undefined : { key, value: fromRedisValue(value), modRV: Number(text(rv)) };
  }

  async write(op: WriteOp): Promise<WriteResult> {
    const k = this.keys;
    const value = op.kind === 'delete' ? '' : toRedisValue(op.value);
    const expect = op.kind === 'create' ? '' : String(op.expectRV);
    const ttl = op.kind === 'delete' || op.ttlMs === undefined ? '' : String(op.ttlMs);
    const [status, rv] = (await this.eval(
      writeScript,
      [k.rv, k.index, k.expiry, k.log, k.object(op.key), k.versions, k.versionsAt],
      [op.kind, op.key, value, expect, ttl, this.opts.expirySafetyMarginMs],
    )) as [string, number | undefined];
    if (status === 'ok') return { ok: true, rv: Number(rv) };
    return { ok: false, reason: status as 'exists' | 'conflict' | 'notfound' };
  }

  async page(req: PageRequest): Promise<PageResult> {
    const k = this.keys;
    const reply = (await this.eval(
      pageScript,
      [k.rv, k.index, k.log, k.compacted, k.expiry, k.versions, k.versionsAt],
      [k.objectPrefix, req.prefix, req.start, req.count, req.atRV === undefined ? '' : req.atRV],
      true,
    )) as [Buffer, number, number?, number?, Buffer[]?];
    const status = text(reply[0]);
    if (status === 'expired') return { kind: 'expired', compacted: reply[1] };
    if (status === 'toolarge') return { kind: 'toolarge', current: reply[1] };
    const flat = reply[4] ?? [];
    const items: RawObject[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3)
      items.push({
        key: text(flat[i]),
        value: fromRedisValue(flat[i + 1]!),
        modRV: Number(text(flat[i + 2])),
      });
    return { kind: 'ok', rv: reply[1], items, more: reply[2] === 1, remaining: reply[3] ?? 0 };
  }

  async pageKeys(req: PageRequest): Promise<PageResult<KeyVersion>> {
    const joined = await this.readPageKeys(req, 'keys');
    return joined ?? (await this.readPageKeys(req, 'keyslen'))!;
  }

  /** A keys-only page in one of the page script's formats; undefined when 'keys' cannot carry it. */
  private async readPageKeys(
    req: PageRequest,
    mode: 'keys' | 'keyslen',
  ): Promise<PageResult<KeyVersion> | undefined> {
    const k = this.keys;
    const reply = (await this.eval(
      pageScript,
      [k.rv, k.index, k.log, k.compacted, k.expiry, k.versions, k.versionsAt],
      [k.objectPrefix, req.prefix, req.start, req.count, req.atRV === undefined ? '' : req.atRV, mode],
      true,
    )) as [Buffer, number, number?, number?, (Buffer | [Buffer, Buffer])?];
    const status = text(reply[0]);
    if (status === 'expired') return { kind: 'expired', compacted: reply[1] };
    if (status === 'toolarge') return { kind: 'toolarge', current: reply[1] };
    const out = reply[4];
    const items =
      mode === 'keys'
        ? joinedKeyVersions(...((out as [Buffer, Buffer] | undefined) ?? [Buffer.alloc(0), Buffer.alloc(0)]))
        : packedKeyVersions((out as Buffer | undefined) ?? Buffer.alloc(0));
    if (!items) return undefined;
    return { kind: 'ok', rv: reply[1], items, more: reply[2] === 1, remaining: reply[3] ?? 0 };
  }

  async readValues(atRV: number, items: readonly KeyVersion[]): Promise<ValuesRead> {
    const k = this.keys;
    const args: (string | number)[] = [k.objectPrefix, atRV];
    for (const item of items) args.push(item.key, item.modRV);
    const reply = (await this.eval(valuesScript, [k.log, k.compacted], args, true)) as [
      Buffer,
      number | (Buffer | null)[],
    ];
    if (text(reply[0]) === 'expired') return { kind: 'expired', compacted: reply[1] as number };
    const values = reply[1] as (Buffer | null)[];
    return {
      kind: 'ok',
      items: items.map((item, i) => {
        const v = values[i];
        return v === null || v === undefined
          ? undefined
          : { key: item.key, value: fromRedisValue(v), modRV: item.modRV };
      }),
    };
  }

  async readLog(afterRV: number, limit: number): Promise<LogRead> {
    const k = this.keys;
    const reply = (await this.eval(readLogScript, [k.compacted, k.log, k.rv], [afterRV, limit], true)) as [
      Buffer,
      number,
      [Buffer, Buffer[]][]?,
    ];
    if (text(reply[0]) === 'expired') return { kind: 'expired', compacted: reply[1] };
    return {
      kind: 'ok',
      current: reply[1],
      entries: (reply[2] ?? []).map(([id, fields]) => parseLogEntry(id, fields)),
    };
  }

  async currentRV(): Promise<number> {
    return Number((await this.call('GET', [this.keys.rv])) ?? 0);
  }

  async compact(rv: number): Promise<void> {
    await this.eval(compactScript, [this.keys.compacted, this.keys.log, this.keys.rv], [rv]);
  }

  async reapExpired(): Promise<number> {
    const k = this.keys;
    return Number(
      await this.eval(
        reapScript,
        [k.rv, k.index, k.expiry, k.log, k.versions, k.versionsAt],
        [k.objectPrefix, reapBatch],
      ),
    );
  }

  async ping(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(storageTimeout(`PING within ${timeoutMs}ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.call('PING', []), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async dbSize(): Promise<number> {
    const nodes = 'nodes' in this.client ? this.client.nodes('master') : [this.client];
    const sizes = await Promise.all(
      nodes.map(async (node) => {
        const info = String(await node.info('memory'));
        const m = /^used_memory:(\d+)\r?$/m.exec(info);
        if (!m) throw new Error('INFO memory has no used_memory');
        return Number(m[1]);
      }),
    );
    return sizes.reduce((a, b) => a + b, 0);
  }

  async close(): Promise<void> {
    await this.hub.close();
    await Promise.all(this.opts.owned.map((c) => c.quit().catch(() => c.disconnect())));
  }
}

/**
 * A 'keys' page: space-separated versions beside newline-separated keys. Undefined when a key
 * holds a newline (more keys than versions), which only the 'keyslen' records can carry.
 */
function joinedKeyVersions(versions: Buffer, joined: Buffer): KeyVersion[] | undefined {
  if (versions.length === 0) return joined.length === 0 ? [] : undefined;
  const keys = joined.toString('utf8').split('\n');
  const items = new Array<KeyVersion>(keys.length);
  const space = 0x20;
  let i = 0;
  for (let n = 0; n < keys.length; n++) {
    if (i >= versions.length) return undefined;
    let rv = 0;
    for (; i < versions.length && versions[i] !== space; i++) rv = rv * 10 + versions[i]! - 0x30;
    i++;
    items[n] = { key: keys[n]!, modRV: rv };
  }
  return i >= versions.length ? items : undefined;
}

/** A 'keyslen' page: `<rv> <key byte length> <key>` records, back to back. */
function packedKeyVersions(packed: Buffer): KeyVersion[] {
  const items: KeyVersion[] = [];
  const space = 0x20;
  let i = 0;
  while (i < packed.length) {
    let rv = 0;
    for (; i < packed.length && packed[i] !== space; i++) rv = rv * 10 + packed[i]! - 0x30;
    let len = 0;
    for (i++; i < packed.length && packed[i] !== space; i++) len = len * 10 + packed[i]! - 0x30;
    i++;
    if (i + len > packed.length) throw new Error('malformed keys-only page reply');
    items.push({ key: packed.toString('utf8', i, i + len), modRV: rv });
    i += len;
  }
  return items;
}
