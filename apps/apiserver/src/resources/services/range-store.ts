import { randomInt } from 'node:crypto';
import { newUid } from '@keel/apimachinery';
import type { Storage } from '@keel/storage';

/**
 * A RangeAllocation as upstream keeps it under /registry/ranges/: the range it covers and a
 * bitmap of the taken offsets (bit i of byte i/8, base64 on the wire).
 */
export interface RangeAllocation {
  apiVersion: 'v1';
  kind: 'RangeAllocation';
  metadata: { name?: string; uid?: string; creationTimestamp?: string; resourceVersion?: string };
  range: string;
  data: string;
}

export class RangeFullError extends Error {
  constructor() {
    super('range is full');
  }
}

export class AlreadyAllocatedError extends Error {}

/** The range changed after the repair pass read it. */
class StaleSnapshot extends Error {}

function isSet(bits: Buffer, i: number): boolean {
  return ((bits[i >> 3] ?? 0) & (1 << (i & 7))) !== 0;
}

function withBit(bits: Buffer, i: number, on: boolean): void {
  const byte = bits[i >> 3] ?? 0;
  bits[i >> 3] = on ? byte | (1 << (i & 7)) : byte & ~(1 << (i & 7));
}

/**
 * The taken offsets of one range, kept in ONE store object: every change is a compare-and-swap
 * of that object (the storage's guaranteedUpdate re-reads and retries on a conflict), so API
 * servers sharing the store never hand out an offset twice. A stored bitmap of another range
 * (the flag changed) starts over empty; the repair pass marks what existing Services hold.
 */
export class RangeStore {
  constructor(
    private readonly storage: Storage,
    readonly key: string,
    /** The range's text as the object records it (`10.0.0.0/24`, `30000-32767`). */
    readonly rangeSpec: string,
    readonly size: number,
    /** Offsets the dynamic allocation never picks (the platform Service's address). */
    private readonly reserved: ReadonlySet<number> = new Set(),
  ) {}

  private bitmap(current: RangeAllocation | undefined): Buffer {
    const bits = Buffer.alloc(Math.ceil(this.size / 8));
    if (current && current.range === this.rangeSpec) Buffer.from(current.data, 'base64').copy(bits);
    return bits;
  }

  private next(current: RangeAllocation | undefined, bits: Buffer): RangeAllocation {
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const meta = current?.metadata ?? { uid: newUid(), creationTimestamp: now };
    const { resourceVersion: _rv, ...rest } = meta;
    return {
      apiVersion: 'v1',
      kind: 'RangeAllocation',
      metadata: rest,
      range: this.rangeSpec,
      data: bits.toString('base64'),
    };
  }

  private async change(
    pick: (bits: Buffer) => number | undefined,
    dryRun: boolean,
  ): Promise<number | undefined> {
    let chosen: number | undefined;
    if (dryRun) {
      const current = await this.storage.get<RangeAllocation>(this.key, { ignoreNotFound: true });
      return pick(this.bitmap(current));
    }
    await this.storage.guaranteedUpdate<RangeAllocation>(
      this.key,
      (current) => {
        const bits = this.bitmap(current);
        chosen = pick(bits);
        return this.next(current, bits);
      },
      { ignoreNotFound: true },
    );
    return chosen;
  }

  /** Takes one offset; AlreadyAllocatedError when it is taken. */
  async allocate(offset: number, dryRun = false): Promise<void> {
    await this.change((bits) => {
      if (isSet(bits, offset)) throw new AlreadyAllocatedError();
      withBit(bits, offset, true);
      return offset;
    }, dryRun);
  }

  /** Takes a free offset from a random start (so servers racing rarely collide); RangeFullError when none is. */
  async allocateNext(dryRun = false): Promise<number> {
    const offset = await this.change((bits) => {
      const start = this.size > 1 ? randomInt(this.size) : 0;
      for (let i = 0; i < this.size; i++) {
        const candidate = (start + i) % this.size;
        if (this.reserved.has(candidate) || isSet(bits, candidate)) continue;
        withBit(bits, candidate, true);
        return candidate;
      }
      throw new RangeFullError();
    }, dryRun);
    return offset ?? 0;
  }

  /** Gives offsets back; offsets not taken are ignored. */
  async release(offsets: readonly number[]): Promise<void> {
    if (offsets.length === 0) return;
    await this.change((bits) => {
      for (const o of offsets) withBit(bits, o, false);
      return undefined;
    }, false);
  }

  /** Marks offsets taken (the repair pass: Services stored while the bitmap did not know them). */
  async mark(offsets: readonly number[]): Promise<void> {
    if (offsets.length === 0) return;
    await this.change((bits) => {
      for (const o of offsets) withBit(bits, o, true);
      return undefined;
    }, false);
  }

  /**
   * The repair pass (upstream's repair controllers): the bitmap becomes what `held` (read after
   * the snapshot) says Services hold, plus offsets taken but held by none that have been seen so
   * fewer than `leakRounds` times (a create between allocation and store looks the same). The
   * write is a compare-and-swap on the snapshot: a concurrent change skips this round.
   * Returns whether it wrote.
   */
  async repair(
    held: () => Promise<ReadonlySet<number>>,
    leaks: Map<number, number>,
    leakRounds: number,
  ): Promise<boolean> {
    const current = await this.storage.get<RangeAllocation>(this.key, { ignoreNotFound: true });
    const bits = this.bitmap(current);
    const holding = await held();
    const next = Buffer.alloc(bits.length);
    for (const o of holding) if (o >= 0 && o < this.size) withBit(next, o, true);
    for (let i = 0; i < this.size; i++) {
      if (!isSet(bits, i) || holding.has(i)) {
        leaks.delete(i);
        continue;
      }
      const seen = (leaks.get(i) ?? 0) + 1;
      if (seen >= leakRounds) leaks.delete(i);
      else {
        leaks.set(i, seen);
        withBit(next, i, true);
      }
    }
    if (current && current.range === this.rangeSpec && next.equals(bits)) return false;
    const snapshot = current?.metadata.resourceVersion;
    try {
      await this.storage.guaranteedUpdate<RangeAllocation>(
        this.key,
        (latest) => {
          if (latest?.metadata.resourceVersion !== snapshot) throw new StaleSnapshot();
          return this.next(latest, next);
        },
        { ignoreNotFound: true },
      );
    } catch (err) {
      if (err instanceof StaleSnapshot) return false;
      throw err;
    }
    return true;
  }

  /** The taken offsets, for tests and the repair pass. */
  async taken(): Promise<number[]> {
    const bits = this.bitmap(await this.storage.get<RangeAllocation>(this.key, { ignoreNotFound: true }));
    const out: number[] = [];
    for (let i = 0; i < this.size; i++) if (isSet(bits, i)) out.push(i);
    return out;
  }
}
