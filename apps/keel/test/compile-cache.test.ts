import { isAscii } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@keel/testing';
import { compileCacheDir } from '../src/compile-cache.js';

// The daemons' V8 code cache (src/compile-cache.ts) as the built launcher uses it: a valid cache
// is used, and a missing, stale, corrupt or unsafe one is ignored (and replaced) without the
// daemon noticing. NODE_DEBUG=keel-compile-cache is how an operator sees which happened.

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const runner = pathToFileURL(join(app, 'dist', 'compile-cache.js')).href;
const work = mkdtempSync(join(tmpdir(), 'keel-compile-cache-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const caches = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.cache'));

/** Runs `bundle` through runBundle as the launcher does, the cache taken after 50 ms. */
function runThrough(
  bundle: string,
  cacheDir: string,
  env: NodeJS.ProcessEnv = {},
): { out: string; err: string } {
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { runBundle } from ${JSON.stringify(runner)};
runBundle(${JSON.stringify(bundle)}, { cacheDir: ${JSON.stringify(cacheDir)}, writeAfterMs: 50 });`,
      'an-argument',
    ],
    { encoding: 'utf8', env: { ...process.env, NODE_DEBUG: 'keel-compile-cache', ...env }, timeout: 20_000 },
  );
  expect(r.status, r.stderr).toBe(0);
  return { out: r.stdout, err: r.stderr };
}

/** A small CommonJS bundle that uses what Node's wrapper provides, and lives for 300 ms. */
function bundle(dir: string, greeting: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'daemon.cjs');
  writeFileSync(
    file,
    `const { basename } = require('node:path');
function greet(n) { return ${JSON.stringify(greeting)} + ' ' + n; }
module.exports.greet = greet;
console.log(greet(basename(__filename)), basename(__dirname), process.argv.at(-1));
setTimeout(() => undefined, 300);
`,
  );
  return file;
}

describe('the daemons’ code cache', () => {
  it('is written by a run that lasts, then used; the bundle sees Node’s CommonJS wrapper', () => {
    const dir = join(work, 'valid');
    const file = bundle(dir, 'hello');
    const cacheDir = join(dir, 'cache');
    const first = runThrough(file, cacheDir);
    expect(first.out).toBe('hello daemon.cjs valid an-argument\n');
    expect(first.err).toMatch(/none yet: .*daemon\.cjs-[0-9a-f]{32}-.*\.cache/);
    expect(first.err).toMatch(/written \(\d+ bytes\)/);
    expect(caches(cacheDir)).toHaveLength(1);

    const second = runThrough(file, cacheDir);
    expect(second.out).toBe('hello daemon.cjs valid an-argument\n');
    expect(second.err).toMatch(/accepted: /);
    expect(second.err).not.toMatch(/written/);
  });

  it('decodes a bundle with non-ASCII text as UTF-8, and the built daemons are ASCII (read as latin1)', () => {
    const dir = join(work, 'non-ascii');
    const file = bundle(dir, 'héllo wörld ✓');
    expect(runThrough(file, join(dir, 'cache')).out).toBe('héllo wörld ✓ daemon.cjs non-ascii an-argument\n');
    for (const name of ['apiserver', 'scheduler'])
      expect(isAscii(readFileSync(join(app, 'dist', 'daemons', `${name}.cjs`)))).toBe(true);
  });

  it('is not written by a run that ends before it is taken', () => {
    const dir = join(work, 'short');
    const file = join(dir, 'once.cjs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, "console.log('done');\n");
    const cacheDir = join(dir, 'cache');
    expect(runThrough(file, cacheDir).out).toBe('done\n');
    expect(caches(cacheDir)).toEqual([]);
  });

  it('ignores a stale cache: the changed bundle runs, gets its own cache, and the old one goes', () => {
    const dir = join(work, 'stale');
    const cacheDir = join(dir, 'cache');
    runThrough(bundle(dir, 'old'), cacheDir);
    const [old] = caches(cacheDir);
    const changed = runThrough(bundle(dir, 'new'), cacheDir);
    expect(changed.out).toBe('new daemon.cjs stale an-argument\n');
    expect(changed.err).toMatch(/none yet/);
    expect(changed.err).not.toMatch(/accepted/);
    expect(caches(cacheDir)).toHaveLength(1);
    expect(caches(cacheDir)).not.toContain(old);
  });

  it('ignores a corrupt cache and replaces it', () => {
    const dir = join(work, 'corrupt');
    const file = bundle(dir, 'hi');
    const cacheDir = join(dir, 'cache');
    runThrough(file, cacheDir);
    const [name] = caches(cacheDir);
    const path = join(cacheDir, name!);
    const data = readFileSync(path);
    data[data.length - 10] = data[data.length - 10]! ^ 0xff;
    writeFileSync(path, data);
    const run = runThrough(file, cacheDir);
    expect(run.out).toBe('hi daemon.cjs corrupt an-argument\n');
    expect(run.err).toMatch(/corrupt, ignored/);
    expect(run.err).toMatch(/written/);
    expect(runThrough(file, cacheDir).err).toMatch(/accepted/);
  });

  it('survives data V8 refuses (right checksum, not a code cache) and replaces it', async () => {
    const dir = join(work, 'refused');
    const file = bundle(dir, 'hey');
    const cacheDir = join(dir, 'cache');
    runThrough(file, cacheDir);
    const [name] = caches(cacheDir);
    const body = Buffer.alloc(4096, 7);
    const { createHash } = await import('node:crypto');
    writeFileSync(join(cacheDir, name!), Buffer.concat([createHash('sha256').update(body).digest(), body]));
    const run = runThrough(file, cacheDir);
    expect(run.out).toBe('hey daemon.cjs refused an-argument\n');
    expect(run.err).toMatch(/rejected by V8/);
    expect(run.err).toMatch(/written/);
    expect(runThrough(file, cacheDir).err).toMatch(/accepted/);
  });

  it('is not used from a directory others can write to', () => {
    const dir = join(work, 'shared');
    const file = bundle(dir, 'yo');
    const cacheDir = join(dir, 'cache');
    mkdirSync(cacheDir, { mode: 0o700 });
    chmodSync(cacheDir, 0o777);
    const run = runThrough(file, cacheDir);
    expect(run.out).toBe('yo daemon.cjs shared an-argument\n');
    expect(run.err).toMatch(/not used: .* is not a directory only its owner can write/);
    expect(caches(cacheDir)).toEqual([]);
  });

  it('is off with KEEL_COMPILE_CACHE=off, in the named directory, else per user under the temp dir', () => {
    expect(compileCacheDir({ KEEL_COMPILE_CACHE: 'off' })).toBeUndefined();
    expect(compileCacheDir({ KEEL_COMPILE_CACHE: 'false' })).toBeUndefined();
    expect(compileCacheDir({ KEEL_COMPILE_CACHE: '/var/cache/keel' })).toBe('/var/cache/keel');
    expect(compileCacheDir({})).toBe(join(tmpdir(), `keel-compile-cache-${process.getuid?.() ?? 'user'}`));
  });
});

function readyz(port: number, ca: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`https://127.0.0.1:${port}/readyz`, { ca, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** The bundled API server through its launcher, until /readyz answers 200; then `linger`, then stop. */
async function apiserver(cacheDir: string, linger: () => Promise<void>): Promise<string> {
  const port = await freePort();
  const certDir = mkdtempSync(join(work, 'certs-'));
  const child = spawn(
    process.execPath,
    [
      join(app, 'dist', 'daemons', 'apiserver.mjs'),
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${certDir}`,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, KEEL_COMPILE_CACHE: cacheDir, NODE_DEBUG: 'keel-compile-cache' },
    },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.resume();
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the API server exited:\n${err}`);
      if (Date.now() > deadline) throw new Error(`the API server was not ready:\n${err}`);
      const ca = readdirSync(certDir).includes('ca.crt') ? readFileSync(join(certDir, 'ca.crt'), 'utf8') : '';
      if (ca && (await readyz(port, ca)) === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await linger();
    return err;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('the bundled API server with a code cache', () => {
  it('writes its cache once it has run a while, and a restart uses it and gets ready', async () => {
    const cacheDir = join(work, 'apiserver-cache');
    const first = await apiserver(cacheDir, async () => {
      const deadline = Date.now() + 30_000;
      while (caches(cacheDir).length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    });
    expect(first).toMatch(/none yet: .*apiserver\.cjs-/);
    expect(caches(cacheDir)).toHaveLength(1);
    const second = await apiserver(cacheDir, async () => undefined);
    expect(second).toMatch(/accepted: .*apiserver\.cjs-/);
  }, 90_000);

  it('--version runs without writing a cache', () => {
    const cacheDir = join(work, 'version-cache');
    const r = spawnSync(process.execPath, [join(app, 'dist', 'daemons', 'apiserver.mjs'), '--version'], {
      encoding: 'utf8',
      env: { ...process.env, KEEL_COMPILE_CACHE: cacheDir },
    });
    expect(r.stdout).toMatch(/^Keel v/);
    expect(caches(cacheDir)).toEqual([]);
  });
});
