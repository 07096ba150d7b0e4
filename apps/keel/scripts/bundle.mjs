// Bundles what the packed `keel` package ships, so that it installs with no dependencies (the
// workspace packages are private): the CLI with yargs, and each daemon with all it imports, into
// dist/. The library (dist/index.js) imports only Node's built-ins and finds the daemons there.
//
// Each daemon is a CommonJS bundle (daemons/<name>.cjs) started by a small ES module launcher
// (daemons/<name>.mjs) that compiles it through a V8 code cache (src/compile-cache.ts): on Node
// 20 only a script, not an ES module, can be compiled from cached data.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * esbuild escapes every non-ASCII character of the code (its default charset), but copies
 * comments as they are: the few non-ASCII characters left are in comments, and become '?', so
 * that the launcher can decode the bundle as latin1, a plain copy, instead of UTF-8 (tens of
 * milliseconds for ~9 MB at every start, src/compile-cache.ts).
 *
 * @param {string} file
 */
function asciiOnly(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  // eslint-disable-next-line no-control-regex
  const other = /[^\x00-\x7f]/gu;
  lines.forEach((line, i) => {
    const at = line.search(other);
    if (at < 0) return;
    const trimmed = line.trimStart();
    const inComment = trimmed.startsWith('*') || trimmed.startsWith('/*') || line.lastIndexOf('//', at) >= 0;
    // Should esbuild ever leave one in code, replacing it would change the program: stop instead.
    if (!inComment) throw new Error(`${file}:${i + 1}: a non-ASCII character outside a comment`);
    lines[i] = line.replace(other, '?');
  });
  writeFileSync(file, lines.join('\n'));
}

/**
 * The daemon's main.js without its top-level await, which a CommonJS bundle cannot have.
 *
 * @param {string} name
 * @param {{ prepare?: boolean }} [opts] prepare: the app exports prepare(), start-up work that
 *   needs no arguments, which the launcher runs while it waits for them (src/launch.ts)
 */
async function daemon(name, opts = {}) {
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
        '/** Called by the launcher (src/launch.ts) with the command line. */\n' +
        'export function start(argv) {\n' +
        '  void main(argv).then((code) => exitWhenDone(code));\n' +
        '}\n' +
        (opts.prepare ? "export { prepare } from './app.js';\n" : ''),
      resolveDir: appDist(name),
      sourcefile: `${name}-main.js`,
    },
    outfile: join(dist, 'daemons', `${name}.cjs`),
  });
  asciiOnly(join(dist, 'daemons', `${name}.cjs`));
  const launcher = join(dist, 'daemons', `${name}.mjs`);
  writeFileSync(
    launcher,
    '#!/usr/bin/env node\n' +
      "import { fileURLToPath } from 'node:url';\n" +
      "import { launch } from '../launch.js';\n\n" +
      `launch(fileURLToPath(new URL('./${name}.cjs', import.meta.url)));\n`,
  );
  chmodSync(launcher, 0o755);
}

await Promise.all([
  daemon('apiserver'),
  daemon('scheduler', { prepare: true }),
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
