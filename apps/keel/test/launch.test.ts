import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Daemon } from '../src/daemon.js';
import type { DaemonEntry } from '../src/entries.js';
import { DEFERRED_ARGS_ENV } from '../src/launch.js';

// A bundled daemon spawned before its arguments are known (src/launch.ts), as startControlPlane
// starts the scheduler: it runs as if spawned with the arguments it is given later, and a parent
// that sends none or bad ones gets a one-line error and exit status 1, never a hang.

// The built bundle's launcher (from src/, daemonEntry finds the workspace build instead).
const launcher = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'daemons', 'scheduler.mjs');
const entry: DaemonEntry = { path: launcher, defersArgs: true };

/** The built launcher with KEEL_DEFERRED_ARGS=1 and `input` on standard input. */
function deferred(input: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [launcher], {
    input,
    encoding: 'utf8',
    env: { ...process.env, [DEFERRED_ARGS_ENV]: '1', KEEL_COMPILE_CACHE: 'off' },
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('a daemon that takes its arguments later', () => {
  it('is the bundled launcher (the build made it)', () => {
    expect(existsSync(launcher)).toBe(true);
  });

  it('runs with the arguments begin() hands it, as if spawned with them', async () => {
    const lines: string[] = [];
    const d = new Daemon('scheduler', entry, undefined, (_name, line) => lines.push(line));
    d.begin(['--version']);
    expect(await d.exited).toBe(0);
    expect(lines.join('\n')).toMatch(/^Keel v\d+\.\d+\.\d+/m);
    expect(() => d.begin(['--version'])).toThrow(/was not waiting for its arguments/);
  }, 60_000);

  it('reads them as one JSON line; a flag error is the daemon’s own', () => {
    const r = deferred(`${JSON.stringify(['--no-such-flag'])}\n`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no-such-flag/);
  }, 60_000);

  it('exits 1 with one line when standard input ends before the arguments (its parent died)', () => {
    const r = deferred('');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`Error: ${DEFERRED_ARGS_ENV}: standard input ended before the arguments`);
  }, 60_000);

  it('exits 1 with one line when the first line is not a JSON array of strings', () => {
    for (const input of ['{"a":1}\n', '["--v", 2]\n', 'not json\n']) {
      const r = deferred(input);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(
        `Error: ${DEFERRED_ARGS_ENV}: standard input's first line is not a JSON array of strings`,
      );
    }
  }, 60_000);

  it('is refused for an entry that cannot wait (a workspace build)', () => {
    expect(
      () =>
        new Daemon(
          'scheduler',
          { path: '/nonexistent/main.js', defersArgs: false },
          undefined,
          () => undefined,
        ),
    ).toThrow(/cannot take its arguments later/);
  });
});
