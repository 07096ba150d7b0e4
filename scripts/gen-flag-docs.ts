/**
 * Writes docs/flags/<daemon>.md from the same declarations that --help renders.
 * Run with `pnpm gen:docs`; apps/<daemon>/test/flag-docs.test.ts fails when the files drift.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFlagSets, renderMarkdown, type CommandDefinition } from '@keel/flags';
import { apiServerCommand } from '../apps/apiserver/src/command.js';
import { schedulerCommand } from '../apps/scheduler/src/command.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function write(file: string, cmd: CommandDefinition): void {
  writeFileSync(join(root, 'docs', 'flags', file), renderMarkdown(buildFlagSets(cmd), cmd.description));
  console.log(`wrote docs/flags/${file}`);
}

write('apiserver.md', apiServerCommand());
write('scheduler.md', schedulerCommand());
