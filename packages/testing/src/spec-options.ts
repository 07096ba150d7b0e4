import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The option names the startup-options spec lists for each daemon, from the fixture
 * `test/fixtures/spec-options.json` (written by `pnpm gen:spec-options` from the spec), so a test
 * proves each daemon accepts every option without reading anything outside the repository.
 */
export function specOptionsPath(repoRoot: string): string {
  return join(repoRoot, 'test', 'fixtures', 'spec-options.json');
}

export function specOptions(repoRoot: string): { apiserver: string[]; scheduler: string[] } {
  const parsed = JSON.parse(readFileSync(specOptionsPath(repoRoot), 'utf8')) as {
    apiserver: string[];
    scheduler: string[];
  };
  return { apiserver: parsed.apiserver, scheduler: parsed.scheduler };
}
