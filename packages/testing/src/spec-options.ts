import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads the option names out of the startup-options spec itself, so a test can prove that each
 * daemon accepts every option the spec lists (and notices when the spec grows).
 */
export function specPath(repoRoot: string): string {
  return join(repoRoot, '..', 'shared', 'spec', '001_9f47cb9ef25c5b40.txt');
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

export function specOptions(repoRoot: string): { apiserver: string[]; scheduler: string[] } {
  const all = sections(readFileSync(specPath(repoRoot), 'utf8'));
  const apiserver = new Set<string>();
  const scheduler = new Set<string>();
  for (const [title, body] of all) {
    if (title.includes('> API server options')) optionNames(body).forEach((n) => apiserver.add(n));
    if (title.includes('> API server options: audit')) auditOptions(body).forEach((n) => apiserver.add(n));
    if (title === 'Authentication > API server') optionNames(body).forEach((n) => apiserver.add(n));
    if (title.startsWith('Limits')) optionNames(body).forEach((n) => apiserver.add(n));
    if (
      title === 'Resources and their fields > Scheduler options' ||
      title === 'Authentication > Scheduler'
    ) {
      optionNames(body).forEach((n) => scheduler.add(n));
    }
  }
  // Two spec rows name options of the other document's table: keep each to the process it belongs to.
  apiserver.delete('watch-cache related options');
  return { apiserver: [...apiserver].sort(), scheduler: [...scheduler].sort() };
}
