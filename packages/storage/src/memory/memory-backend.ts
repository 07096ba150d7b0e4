import btree from 'sorted-btree';
import { compareKeys } from '../keys.js';
import { EventLog } from './event-log.js';
import { snapshotPage } from './snapshot-page.js';
import type {
  EventHub,
  HubListener,
  LogEntry,
  LogRead,
  PageRequest,
  PageResult,
  RawObject,
  StorageBackend,
  WriteOp,
  WriteResult,
} from '../backend.js';

// sorted-btree is CommonJS with `exports.default`: Node's default import is module.exports (the
// class is its `default`), while Vite-based runners honour __esModule and hand over the class.
const interop = btree as unknown as typeof btree | typeof btree.default;
const BTree: typeof btree.default = typeof interop === 'function' ? interop : interop.default;
type BTreeOf<K, V> = InstanceType<typeof btree.default<K, V>>;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

interface Stored {
  readonly value: string;
  readonly modRV: number;
  readonly expireAt: number | undefined;
}

interface Expiry {
  readonly at: number;
  readonly key: string;
}

/** Synchronous fan-out: every write reaches every local watcher before write() resolves. */
class MemoryHub implements EventHub {
  readonly listeners = new Set<HubListener>();
  position = 0;

  subscribe(listener: HubListener): Promise<() => void> {
    this.listeners.add(listener);
    return Promise.resolve(() => void this.listeners.delete(listener));
  }

  dispatch(entry: LogEntry): void {
    this.position = entry.rv;
    for (const l of this.listeners) l.onEntry(entry);
  }
}

/** The in-process backend: a B-tree of objects in key order, an expiry B-tree and an event log. */
export class MemoryBackend implements StorageBackend {
  private readonly objects: BTreeOf<string, Stored> = new BTree<string, Stored>(undefined, compareKeys);
  private readonly prefixCounts = new Map<string, number>();
  private readonly expiries: BTreeOf<Expiry, true> = new BTree<Expiry, true>(
    undefined,
    (a, b) => a.at - b.at || compareKeys(a.key, b.key),
  );
  private readonly log = new EventLog();
  private rv = 0;
  /** Keys and values held, in UTF-16 units: close to bytes for the JSON kept here. */
  private size = 0;
  readonly hub = new MemoryHub();

  constructor(private readonly clock: Clock = systemClock) {}

  read(key: string): Promise<RawObject | undefined> {
    const s = this.objects.get(key);
    return Promise.resolve(s && { key, value: s.value, modRV: s.modRV });
  }

  write(op: WriteOp): Promise<WriteResult> {
    const cur = this.objects.get(op.key);
    if (op.kind === 'create' && cur) return Promise.resolve({ ok: false, reason: 'exists' });
    if (op.kind !== 'create') {
      if (op.expectRV === 0 && cur) return Promise.resolve({ ok: false, reason: 'conflict' });
      if (op.expectRV !== 0 && !cur) return Promise.resolve({ ok: false, reason: 'notfound' });
      if (cur && cur.modRV !== op.expectRV) return Promise.resolve({ ok: false, reason: 'conflict' });
    }
    const rv = ++this.rv;
    if (op.kind === 'delete') {
      this.remove(op.key, rv);
    } else {
      const expireAt = op.ttlMs === undefined ? undefined : this.clock.now() + op.ttlMs;
      this.setExpiry(op.key, cur?.expireAt, expireAt);
      if (!cur) this.countKey(op.key, 1);
      this.size += op.value.length - (cur ? cur.value.length : -op.key.length);
      this.objects.set(op.key, { value: op.value, modRV: rv, expireAt });
      this.append({
        rv,
        type: cur ? 'MODIFIED' : 'ADDED',
        key: op.key,
        value: op.value,
        ...(cur ? { prev: cur.value, prevRV: cur.modRV } : {}),
      });
    }
    return Promise.resolve({ ok: true, rv });
  }

  private remove(key: string, rv: number): void {
    const cur = this.objects.get(key);
    if (!cur) return;
    this.setExpiry(key, cur.expireAt, undefined);
    this.countKey(key, -1);
    this.size -= key.length + cur.value.length;
    this.objects.delete(key);
    this.append({ rv, type: 'DELETED', key, prev: cur.value, prevRV: cur.modRV });
  }

  /**
   * Keys per directory prefix (`/events/`, `/events/default/`, ...), kept on every create and
   * delete, so a page can say how many items remain without walking them.
   */
  private countKey(key: string, delta: number): void {
    for (let i = key.indexOf('/'); i !== -1; i = key.indexOf('/', i + 1)) {
      const prefix = key.slice(0, i + 1);
      const n = (this.prefixCounts.get(prefix) ?? 0) + delta;
      if (n === 0) this.prefixCounts.delete(prefix);
      else this.prefixCounts.set(prefix, n);
    }
  }

  private setExpiry(key: string, before: number | undefined, after: number | undefined): void {
    if (before !== undefined) this.expiries.delete({ at: before, key });
    if (after !== undefined) this.expiries.set({ at: after, key }, true);
  }

  private append(entry: LogEntry): void {
    this.log.append(entry);
    this.hub.dispatch(entry);
  }

  dbSize(): Promise<number> {
    return Promise.resolve(this.size);
  }

  page(req: PageRequest): Promise<PageResult> {
    const atRV = req.atRV ?? this.rv;
    if (atRV > this.rv) return Promise.resolve({ kind: 'toolarge', current: this.rv });
    if (atRV < this.log.compacted) return Promise.resolve({ kind: 'expired', compacted: this.log.compacted });
    const objects = this.objects;
    const state = {
      *entriesFrom(start: string): Iterable<RawObject> {
        for (const [key, s] of objects.entries(start)) yield { key, value: s.value, modRV: s.modRV };
      },
      has: (key: string) => objects.has(key),
      count: (prefix: string) => (prefix.endsWith('/') ? (this.prefixCounts.get(prefix) ?? 0) : undefined),
    };
    const page = snapshotPage(state, this.log.since(atRV), req.prefix, req.start, req.count, req.offset);
    return Promise.resolve({ kind: 'ok', rv: atRV, ...page });
  }

  readLog(afterRV: number, limit: number): Promise<LogRead> {
    if (afterRV < this.log.compacted)
      return Promise.resolve({ kind: 'expired', compacted: this.log.compacted });
    return Promise.resolve({ kind: 'ok', entries: this.log.read(afterRV, limit), current: this.rv });
  }

  currentRV(): Promise<number> {
    return Promise.resolve(this.rv);
  }

  compact(rv: number): Promise<void> {
    this.log.compact(Math.min(rv, this.rv));
    return Promise.resolve();
  }

  reapExpired(): Promise<number> {
    const now = this.clock.now();
    const due: string[] = [];
    for (const [e] of this.expiries.entries()) {
      if (e.at > now || due.length >= 500) break;
      due.push(e.key);
    }
    for (const key of due) if (this.objects.has(key)) this.remove(key, ++this.rv);
    return Promise.resolve(due.length);
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.hub.listeners.clear();
    return Promise.resolve();
  }
}
