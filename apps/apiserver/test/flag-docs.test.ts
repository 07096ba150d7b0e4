import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFlagSets, renderMarkdown } from '@keel/flags';
import { describe, expect, it } from 'vitest';
import { apiServerCommand } from '../src/command.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('docs/flags/apiserver.md', () => {
  it('matches the flag declarations (run `pnpm gen:docs` after changing a flag)', () => {
    const cmd = apiServerCommand();
    const expected = renderMarkdown(buildFlagSets(cmd), cmd.description);
    expect(readFileSync(join(root, 'docs', 'flags', 'apiserver.md'), 'utf8')).toBe(expected);
  });
});
