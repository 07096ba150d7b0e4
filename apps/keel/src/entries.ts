import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DaemonEntry {
  readonly path: string;
  /**
   * Whether it can be spawned before its arguments are known and take them on standard input
   * (src/launch.ts): the bundles' launchers can, the workspace builds cannot.
   */
  readonly defersArgs: boolean;
}

/**
 * A daemon's entry point: the bundle built next to this module (dist/daemons/, what the packed
 * package ships), else the workspace app's build (when running from source in the repository).
 */
export function daemonEntry(name: 'apiserver' | 'scheduler'): DaemonEntry {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'daemons', `${name}.mjs`);
  if (existsSync(bundled)) return { path: bundled, defersArgs: true };
  const require = createRequire(import.meta.url);
  return {
    path: join(dirname(require.resolve(`@keel/${name}/package.json`)), 'dist', 'main.js'),
    defersArgs: false,
  };
}
