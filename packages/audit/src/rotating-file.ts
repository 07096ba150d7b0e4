/**
 * An append-only file rotated the way lumberjack (which kube-apiserver uses) does it: when a
 * write would take the file past maxSize, the file is renamed to `<name>-<timestamp><ext>`
 * (UTC, `2006-01-02T15-04-05.000`) and a new one started; then old backups beyond maxBackups
 * or older than maxAge days are removed, and the rest gzipped to `<backup>.gz` when compress is
 * set. Written here rather than taken from rotating-file-stream, whose rotated names come from
 * its own scheme plus a history file and which has no age limit.
 */
import { createReadStream, createWriteStream, mkdirSync, closeSync, openSync } from 'node:fs';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
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
  private handle: FileHandle | undefined;
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
   * Appends the lines (callers serialize their calls). Each line is one lumberjack write: it
   * never straddles a rotation, and a line longer than maxSize is refused.
   */
  async write(lines: readonly Buffer[]): Promise<void> {
    if (!this.handle) await this.openExisting();
    let pending: Buffer[] = [];
    let pendingSize = 0;
    for (const line of lines) {
      if (line.length > this.opts.maxSizeBytes) {
        await this.append(pending, pendingSize);
        throw new Error(`write length ${line.length} exceeds maximum file size ${this.opts.maxSizeBytes}`);
      }
      if (this.size + pendingSize + line.length > this.opts.maxSizeBytes) {
        await this.append(pending, pendingSize);
        pending = [];
        pendingSize = 0;
        await this.rotate();
      }
      pending.push(line);
      pendingSize += line.length;
    }
    await this.append(pending, pendingSize);
  }

  private async append(chunks: readonly Buffer[], size: number): Promise<void> {
    if (size === 0) return;
    const fh = this.handle;
    if (!fh) throw new Error(`audit log ${this.path} is not open`);
    const data = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
    let off = 0;
    while (off < data.length) {
      const { bytesWritten } = await fh.write(data, off, data.length - off);
      off += bytesWritten;
    }
    this.size += data.length;
  }

  async close(): Promise<void> {
    const fh = this.handle;
    this.handle = undefined;
    await fh?.close();
    await this.millRunning;
  }

  private async openExisting(): Promise<void> {
    this.handle = await open(this.path, 'a', 0o600);
    this.size = (await this.handle.stat()).size;
  }

  private async rotate(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    const backup = join(this.dir, `${this.prefix}${backupTimestamp(this.now())}${this.ext}`);
    await rename(this.path, backup);
    this.handle = await open(this.path, 'w', 0o600);
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
