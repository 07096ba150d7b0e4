import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `keel completion`: yargs' completion script, run by a real bash against the built CLI.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cli = join(root, 'apps', 'keel', 'dist', 'cli.js');

/** A `keel` on PATH, as an installed package provides, for the script to call back. */
function keelOnPath(): string {
  const bin = mkdtempSync(join(tmpdir(), 'keel-completion-'));
  writeFileSync(join(bin, 'keel'), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  chmodSync(join(bin, 'keel'), 0o755);
  return bin;
}

function keel(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

describe('keel completion', () => {
  it('prints a bash script that completes the real commands and flags of keel up', () => {
    const bin = keelOnPath();
    const script = keel(['completion'], { SHELL: '/bin/bash' });
    expect(script.status).toBe(0);
    expect(script.stdout).toContain('complete -o bashdefault -o default -F _keel_yargs_completions keel');
    const complete = (words: string[]) => {
      const r = spawnSync(
        'bash',
        [
          '-c',
          `eval "$(keel completion)"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); ` +
            `COMP_CWORD=${words.length - 1}; _keel_yargs_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, SHELL: '/bin/bash' },
        },
      );
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter((l) => l !== '');
    };
    expect(complete(['keel', ''])).toEqual(expect.arrayContaining(['up', 'completion']));
    expect(complete(['keel', 'up', '--s']).sort()).toEqual(['--scheduler', '--store-servers']);
    expect(complete(['keel', 'up', '--'])).toEqual(
      expect.arrayContaining(['--dir', '--port', '--nodes', '--store-servers', '--scheduler']),
    );
  });

  it('prints a zsh script when the shell is zsh', () => {
    const r = keel(['completion'], { SHELL: '/bin/zsh' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('compdef _keel_yargs_completions keel');
    expect(r.stdout).toContain('keel --get-yargs-completions');
  });
});
