import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Writes test/fixtures/spec-options.json: the option names the startup-options spec (the file
 * named on the command line) lists for each daemon. Tests read that fixture, never the spec beside the repository, so a clean clone tests
 * itself; re-run this (`pnpm gen:spec-options`) when the spec changes.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const specFile = process.argv[2];
if (!specFile) {
  console.error('usage: pnpm gen:spec-options <startup-options spec file>');
  process.exit(2);
}

function sections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let title = '';
  for (const line of text.split('\n')) {
    const m = /^(#{2,3}) (.*)$/.exec(line);
    if (m) {
      title = m[1] === '##' ? (m[2] ?? '') : `${title.split(' > ')[0] ?? ''} > ${m[2] ?? ''}`;
      continue;
    }
    out.set(title, (out.get(title) ?? '') + line + '\n');
  }
  return out;
}

function optionNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/--([a-z0-9][a-z0-9-]*)/g)) {
    const name = m[1] ?? '';
    if (!name.endsWith('-')) names.add(name);
  }
  return [...names];
}

/** The audit sinks' options are written as a prefix plus a table of suffixes. */
function auditOptions(text: string): string[] {
  const suffixes = [...text.matchAll(/^\| ([a-z][a-z-]*) \| (?:int|duration|boolean|string|float) \|/gm)].map(
    (m) => m[1] ?? '',
  );
  return suffixes.flatMap((s) => [`audit-log-${s}`, `audit-webhook-${s}`]);
}

const all = sections(readFileSync(specFile, 'utf8'));
const apiserver = new Set<string>();
const scheduler = new Set<string>();
for (const [title, body] of all) {
  if (title.includes('> API server options')) optionNames(body).forEach((n) => apiserver.add(n));
  if (title.includes('> API server options: audit')) auditOptions(body).forEach((n) => apiserver.add(n));
  if (title === 'Authentication > API server') optionNames(body).forEach((n) => apiserver.add(n));
  if (title.startsWith('Limits')) optionNames(body).forEach((n) => apiserver.add(n));
  if (title === 'Resources and their fields > Scheduler options' || title === 'Authentication > Scheduler') {
    optionNames(body).forEach((n) => scheduler.add(n));
  }
}
const out = {
  source: basename(specFile),
  apiserver: [...apiserver].sort(),
  scheduler: [...scheduler].sort(),
};
writeFileSync(join(root, 'test', 'fixtures', 'spec-options.json'), JSON.stringify(out, null, 2) + '\n');
console.log(
  `spec-options.json: ${out.apiserver.length} API server options, ${out.scheduler.length} scheduler options`,
);
