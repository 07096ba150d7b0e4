// Bundles what the packed `keel` package ships, so that it installs with no dependencies (the
// workspace packages are private): the CLI with yargs, and each daemon with all it imports, into
// dist/. The library (dist/index.js) imports only Node's built-ins and finds the daemons there.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const require = createRequire(import.meta.url);
const app = (name) => join(dirname(require.resolve(`@keel/${name}/package.json`)), 'dist', 'main.js');

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
  banner: {
    js: "import { createRequire as __keelRequire } from 'node:module'; const require = __keelRequire(import.meta.url);",
  },
};

await Promise.all([
  build({ ...common, entryPoints: [app('apiserver')], outfile: join(dist, 'daemons', 'apiserver.mjs') }),
  build({ ...common, entryPoints: [app('scheduler')], outfile: join(dist, 'daemons', 'scheduler.mjs') }),
  build({ ...common, entryPoints: [join(dist, 'cli.js')], outfile: join(dist, 'cli.mjs') }),
]);
