import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A daemon's entry point: the bundle built next to this module (dist/daemons/, what the packed
 * package ships), else the workspace app's build (when running from source in the repository).
 */
export function daemonEntry(name: 'apiserver' | 'scheduler'): string {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'daemons', `${name}.mjs`);
  if (existsSync(bundled)) return bundled;
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve(`@keel/${name}/package.json`)), 'dist', 'main.js');
}
