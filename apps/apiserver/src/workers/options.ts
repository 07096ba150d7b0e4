import { availableParallelism } from 'node:os';
import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';

/** How many server processes share the secure port (Keel's own; kube-apiserver is one Go process). */
export interface WorkersConfig {
  /** 1 runs the server in this process, as without the flag; more forks that many workers. */
  readonly count: number;
}

/** What --workers=0 (the default) means: every core with a Redis store, one process with the embedded one. */
export function defaultWorkers(redis: boolean, cores = availableParallelism()): number {
  return redis ? Math.max(1, cores) : 1;
}

export class WorkersOptions implements OptionsGroup<{ workers?: WorkersConfig }> {
  workers = 0;

  /** Read at validate time, after parsing. */
  constructor(
    private readonly settings: {
      /** Whether --store-servers names a Redis store. */
      redisStore(): boolean;
      /** Whether the serving certificate would be generated in memory (--cert-dir='', no cert files). */
      inMemoryCertificate(): boolean;
    },
  ) {}

  private redisStore(): boolean {
    return this.settings.redisStore();
  }

  addFlags(fss: NamedFlagSets): void {
    fss.section('Generic').var(this, 'workers', {
      name: 'workers',
      type: t.int,
      usage:
        'Keel only: the number of server processes (node:cluster workers) serving the secure port, each a ' +
        'full API server on the shared store, under one primary process that restarts a worker that dies ' +
        'and drains them all on SIGTERM. 0 means one per core with --store-servers and 1 with the embedded ' +
        'store (or with a certificate generated in memory). More than 1 needs --store-servers: the embedded ' +
        'store lives in one process and cannot be shared.',
    });
  }

  validate(): string[] {
    if (!Number.isInteger(this.workers) || this.workers < 0)
      return [
        `--workers must be 0 (one per core with a Redis store) or a positive count, got ${this.workers}`,
      ];
    if (this.workers > 1 && !this.redisStore())
      return [
        `--workers=${this.workers} needs --store-servers: the embedded in-memory store lives in one process and cannot be shared by workers`,
      ];
    if (this.workers > 1 && this.settings.inMemoryCertificate())
      return [
        `--workers=${this.workers} needs --cert-dir or --tls-cert-file: a certificate generated in memory would differ in every worker`,
      ];
    return [];
  }

  applyTo(config: { workers?: WorkersConfig }): void {
    // A certificate made in memory cannot be shared, so the default stays one process then.
    const shareable = this.redisStore() && !this.settings.inMemoryCertificate();
    config.workers = { count: this.workers === 0 ? defaultWorkers(shareable) : this.workers };
  }
}
