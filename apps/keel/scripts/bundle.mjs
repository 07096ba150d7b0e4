// Bundles what the packed `keel` package ships, so that it installs with no dependencies (the
// workspace packages are private): the CLI with yargs, and each daemon with all it imports, into
// dist/. The library (dist/index.js) imports only Node's built-ins and finds the daemons there.
//
// Each daemon is a CommonJS bundle (daemons/<name>.cjs) started by a small ES module launcher
// (daemons/<name>.mjs) that compiles it through a V8 code cache (src/compile-cache.ts): on Node
// 20 only a script, not an ES module, can be compiled from cached data.
import { chmodSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const require = createRequire(import.meta.url);
const appDist = (name) => join(dirname(require.resolve(`@keel/${name}/package.json`)), 'dist');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
};

/** The daemon's main.js without its top-level await, which a CommonJS bundle cannot have. */
async function daemon(name) {
  await build({
    ...common,
    format: 'cjs',
    // Some ES module dependencies (yargs-parser) read import.meta.url, which CommonJS has not.
    define: { 'import.meta.url': '__keelImportMetaUrl' },
    banner: { js: "var __keelImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    stdin: {
      contents:
        "import { exitWhenDone } from '@keel/lifecycle';\n" +
        "import { main } from './app.js';\n" +
        'main(process.argv.slice(2)).then((code) => exitWhenDone(code));\n',
      resolveDir: appDist(name),
      sourcefile: `${name}-main.js`,
    },
    outfile: join(dist, 'daemons', `${name}.cjs`),
  });
  const launcher = join(dist, 'daemons', `${name}.mjs`);
  writeFileSync(
    launcher,
    '#!/usr/bin/env node\n' +
      "import { fileURLToPath } from 'node:url';\n" +
      "import { compileCacheDir, runBundle } from '../compile-cache.js';\n\n" +
      `runBundle(fileURLToPath(new URL('./${name}.cjs', import.meta.url)), { cacheDir: compileCacheDir() });\n`,
  );
  chmodSync(launcher, 0o755);
}

await Promise.all([
  daemon('apiserver'),
  daemon('scheduler'),
  build({
    ...common,
    format: 'esm',
    entryPoints: [join(dist, 'cli.js')],
    outfile: join(dist, 'cli.mjs'),
    // CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
    banner: {
      js: "import { createRequire as __keelRequire } from 'node:module'; const require = __keelRequire(import.meta.url);",
    },
  }),
]);
