import { describe, expect, it } from 'vitest';
import { parseCommandLine, renderMarkdown, buildFlagSets, type CommandDefinition } from './index.js';
import * as t from './types.js';

function command(): CommandDefinition {
  const o = { port: 6443, cache: true, sizes: [] as readonly string[], vendor: '', backend: '' };
  return {
    name: 'cmd',
    description: 'A test command.',
    build: { gitVersion: 'v1.2.3' },
    addFlags: (fss) => {
      const s = fss.section('Test');
      s.var(o, 'port', { name: 'secure-port', type: t.int, usage: 'The port.' });
      s.var(o, 'cache', { name: 'watch-cache', type: t.bool, usage: 'Cache watches.' });
      s.var(o, 'sizes', { name: 'watch-cache-sizes', type: t.strings, usage: 'Cache sizes.' });
      s.var(o, 'vendor', { name: 'cloud-config', type: t.string, usage: 'The vendor file.' });
      s.var(o, 'backend', { name: 'storage-backend', type: t.string, usage: 'The backend.' });
    },
    validate: () => [],
    effects: {
      'secure-port': { acts: ['packages/flags/src/command.test.ts'] },
      'watch-cache': { refused: 'lists are always served from the store' },
      'watch-cache-sizes': { refused: 'there is no watch cache to size' },
      'cloud-config': { meaningless: 'Keel has no cloud vendor code' },
      'storage-backend': { refused: 'Keel speaks only store3', accepts: ['store3'] },
    },
  };
}

describe('parseCommandLine', () => {
  it('prints help with each flag that does not act saying so', () => {
    const line = parseCommandLine(command(), ['--help']);
    expect(line.action).toBe('help');
    const text = line.action === 'help' ? line.text : '';
    expect(text).toContain(
      '--watch-cache-sizes strings   Cache sizes. Not supported by Keel: any value but the default stops start-up (there is no watch cache to size).',
    );
    expect(text).toContain(
      'The vendor file. Accepted and meaningless in Keel: Keel has no cloud vendor code.',
    );
    expect(text).toMatch(/--secure-port int\s+The port\. \(default 6443\)\n/);
  });

  it('prints the version, and the build info with --version=raw', () => {
    expect(parseCommandLine(command(), ['--version'])).toEqual({ action: 'version', text: 'Keel v1.2.3' });
    const raw = parseCommandLine(command(), ['--version=raw']);
    expect(raw.action === 'version' && JSON.parse(raw.text)).toEqual({ gitVersion: 'v1.2.3' });
  });

  it('refuses a refused flag set to anything but its default, naming the flag and the reason', () => {
    expect(parseCommandLine(command(), ['--watch-cache=false', '--watch-cache-sizes=pods#10'])).toEqual({
      action: 'fail',
      warnings: [],
      errors: [
        '--watch-cache=false is not supported by Keel: lists are always served from the store',
        '--watch-cache-sizes=[pods#10] is not supported by Keel: there is no watch cache to size',
      ],
    });
  });

  it('lets a command line spell out a refused flag at its default, and accepts meaningless flags', () => {
    const line = parseCommandLine(command(), [
      '--watch-cache=true',
      '--watch-cache-sizes=',
      '--cloud-config=/x',
    ]);
    expect(line.action).toBe('run');
  });
});

describe('renderMarkdown', () => {
  it('prints what each flag does in Keel in its own column', () => {
    const cmd = command();
    const md = renderMarkdown(buildFlagSets(cmd), cmd.description);
    expect(md).toContain('| `--secure-port` | int | `6443` | acts | The port. |');
    expect(md).toContain(
      '| `--watch-cache` | bool | `true` | refused | Cache watches. Not supported by Keel',
    );
    expect(md).toContain(
      '| `--cloud-config` | string |  | not applicable | The vendor file. Accepted and meaningless',
    );
    expect(md).toContain('| `-h`, `--help` | bool |  | acts | help for cmd |');
  });
});
