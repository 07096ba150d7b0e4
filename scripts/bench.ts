/**
 * `pnpm bench [name...]`: runs the named benchmarks in bench/ (all of them without a name). Each
 * prints its figures as ratios against a baseline measured in the same run, because absolute
 * numbers on a shared 2-core machine say little on their own.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench');
const available = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();

const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = requested.filter((r) => !available.includes(r));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(1);
}
for (const name of requested.length > 0 ? requested : available) {
  console.log(`\n# ${name}`);
  const mod = (await import(pathToFileURL(join(benchDir, `${name}.bench.ts`)).href)) as {
    run(): Promise<void>;
  };
  await mod.run();
}
