/**
 * An append-only file rotated the way lumberjack (which kube-apiserver uses) does it: when a
 * write would take the file past maxSize, the file is renamed to `<name>-<timestamp><ext>`
 * (UTC, `2006-01-02T15-04-05.000`) and a new one started; then old backups beyond maxBackups
 * or older than maxAge days are removed, and the rest gzipped to `<backup>.gz` when compress is
 * set. Written here rather than taken from rotating-file-stream, whose rotated names come from
 * its own scheme plus a history file and which has no age limit.
 *
 * Lines are written synchronously, as Node writes standard output to a file: on this kind of
 * machine a write handed to the thread pool costs two thread wake-ups, several times the
 * write itself, and `pnpm bench audit` showed it as most of what auditing cost. A local disk
 * takes a page-cache write in microseconds; a log on a disk that can stall would stall the
 * server either way (the pool has four threads), so it belongs on a local disk.
 * Cleaning up old backups still runs in the background.
 */
import {
  closeSync,
  createReadStream,
  createWriteStream,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

export interface RotationOptions {
  readonly maxSizeBytes: number;
  /** 0 keeps every backup. */
  readonly maxBackups: number;
  /** 0 keeps backups whatever their age. */
  readonly maxAgeDays: number;
  readonly compress: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** lumberjack's backupTimeFormat, in UTC. */
export function backupTimestamp(d: Date): string {
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}-${pad(d.getUTCMinutes())}-${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
  );
}

function parseBackupTimestamp(s: string): number | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)-(\d\d)\.(\d{3})$/.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, se, ms] = m.map(Number) as [number, ...number[]];
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, se, ms);
}

/** Creates the file (and its directory) up front, as kube does, so a bad path fails start-up. */
export function ensureLogFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  closeSync(openSync(path, 'a', 0o600));
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private millRunning: Promise<void> = Promise.resolve();
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;

  constructor(
    readonly path: string,
    private readonly opts: RotationOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.dir = dirname(path);
    this.ext = extname(path);
    this.prefix = `${basename(path, this.ext)}-`;
  }

  /**
   * Appends the lines. Each line is one lumberjack write: it never straddles a rotation, and a
   * line longer than maxSize is refused (the error names it once the others are written).
   */
  write(lines: readonly string[]): void {
    if (this.fd === undefined) this.openExisting();
    let pending: string[] = [];
    let pendingSize = 0;
    let refused: number | undefined;
    for (const line of lines) {
      const size = Buffer.byteLength(line, 'utf8');
      if (size > this.opts.maxSizeBytes) {
        refused = size;
        continue;
      }
      if (this.size + pendingSize + size > this.opts.maxSizeBytes) {
        this.append(pending, pendingSize);
        pending = [];
        pendingSize = 0;
        this.rotate();
      }
      pending.push(line);
      pendingSize += size;
    }
    this.append(pending, pendingSize);
    if (refused !== undefined)
      throw new Error(`write length ${refused} exceeds maximum file size ${this.opts.maxSizeBytes}`);
  }

  // One buffer for the whole run of lines: the file sees one write, the heap one allocation.
  private append(lines: readonly string[], size: number): void {
    if (size === 0) return;
    const fd = this.fd;
    if (fd === undefined) throw new Error(`audit log ${this.path} is not open`);
    const data = Buffer.from(lines.length === 1 ? (lines[0] as string) : lines.join(''), 'utf8');
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    this.size += data.length;
  }

  async close(): Promise<void> {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeSync(fd);
    await this.millRunning;
  }

  private openExisting(): void {
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    const backup = join(this.dir, `${this.prefix}${backupTimestamp(this.now())}${this.ext}`);
    renameSync(this.path, backup);
    this.fd = openSync(this.path, 'w', 0o600);
    this.size = 0;
    // Cleaning up runs behind the writes, one run at a time, as lumberjack's mill goroutine does.
    this.millRunning = this.millRunning.then(() => this.mill()).catch(() => undefined);
  }

  private async mill(): Promise<void> {
    const backups: { name: string; time: number }[] = [];
    for (const name of await readdir(this.dir)) {
      if (!name.startsWith(this.prefix)) continue;
      const stem = name.endsWith('.gz') ? name.slice(0, -3) : name;
      if (!stem.endsWith(this.ext)) continue;
      const time = parseBackupTimestamp(stem.slice(this.prefix.length, stem.length - this.ext.length));
      if (time !== undefined) backups.push({ name, time });
    }
    backups.sort((a, b) => b.time - a.time);
    let keep = backups;
    const remove: string[] = [];
    if (this.opts.maxBackups > 0) {
      // A backup and its compressed twin count once.
      const seen = new Set<string>();
      keep = [];
      for (const b of backups) {
        const stem = b.name.replace(/\.gz$/, '');
        if (!seen.has(stem)) seen.add(stem);
        if (seen.size > this.opts.maxBackups) remove.push(b.name);
        else keep.push(b);
      }
    }
    if (this.opts.maxAgeDays > 0) {
      const cutoff = this.now().getTime() - this.opts.maxAgeDays * DAY_MS;
      const young = [];
      for (const b of keep) {
        if (b.time < cutoff) remove.push(b.name);
        else young.push(b);
      }
      keep = young;
    }
    for (const name of remove) await rm(join(this.dir, name), { force: true });
    if (this.opts.compress) {
      for (const b of keep) {
        if (b.name.endsWith('.gz')) continue;
        const src = join(this.dir, b.name);
        await pipeline(createReadStream(src), createGzip(), createWriteStream(`${src}.gz`, { mode: 0o600 }));
        await rm(src, { force: true });
      }
    }
  }
}
