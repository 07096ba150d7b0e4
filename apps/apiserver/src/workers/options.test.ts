import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { defaultWorkers, WorkersOptions, type WorkersConfig } from './options.js';

function setup(argv: string[], store: { redis: boolean; inMemoryCertificate?: boolean }) {
  const o = new WorkersOptions({
    redisStore: () => store.redis,
    inMemoryCertificate: () => store.inMemoryCertificate ?? false,
  });
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const count = () => {
    const config: { workers?: WorkersConfig } = {};
    o.applyTo(config);
    return config.workers?.count;
  };
  return { o, parsed, count };
}

describe('--workers', () => {
  it('defaults to one per core with a Redis store and to 1 otherwise', () => {
    expect(defaultWorkers(true, 8)).toBe(8);
    expect(defaultWorkers(false, 8)).toBe(1);
    expect(setup([], { redis: true }).count()).toBe(availableParallelism());
    expect(setup([], { redis: false }).count()).toBe(1);
    // A certificate generated in each worker's memory could not be shared.
    expect(setup([], { redis: true, inMemoryCertificate: true }).count()).toBe(1);
  });

  it('takes an explicit count', () => {
    const { o, count } = setup(['--workers=3'], { redis: true });
    expect(o.validate()).toEqual([]);
    expect(count()).toBe(3);
    expect(setup(['--workers=1'], { redis: false }).o.validate()).toEqual([]);
  });

  it('refuses more than one worker on the embedded store or with an in-memory certificate, and negatives', () => {
    expect(setup(['--workers=2'], { redis: false }).o.validate()).toEqual([
      '--workers=2 needs --store-servers: the embedded in-memory store lives in one process and cannot be shared by workers',
    ]);
    expect(setup(['--workers=2'], { redis: true, inMemoryCertificate: true }).o.validate()).toEqual([
      '--workers=2 needs --cert-dir or --tls-cert-file: a certificate generated in memory would differ in every worker',
    ]);
    expect(setup(['--workers=-2'], { redis: true }).o.validate()).toEqual([
      '--workers must be 0 (one per core with a Redis store) or a positive count, got -2',
    ]);
  });
});
