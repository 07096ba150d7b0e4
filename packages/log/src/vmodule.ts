import type { ModuleLevel } from '@keel/flags';

/** `server.test.ts` -> `server.test`: klog matches --vmodule patterns against the name without `.go`. */
export function moduleName(file: string): string {
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/** A filepath.Match-style glob limited to `*` (any run of characters) and `?` (one character). */
function globToRegExp(pattern: string): RegExp {
  let src = '';
  for (const ch of pattern) {
    if (ch === '*') src += '[^/]*';
    else if (ch === '?') src += '[^/]';
    else src += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 'u');
}

/**
 * Per-file verbosity from --vmodule. The first pattern that matches a file decides its level, as in
 * klog; files that match none get undefined. Results are cached per file, as klog caches per call site.
 */
export class ModuleFilter {
  private readonly rules: readonly { readonly re: RegExp; readonly level: number }[];
  private readonly cache = new Map<string, number | undefined>();

  constructor(spec: readonly ModuleLevel[]) {
    this.rules = spec.map((m) => ({ re: globToRegExp(m.pattern), level: m.level }));
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** The level for a caller file's base name (`scheduler.ts`), or undefined when no pattern matches. */
  levelFor(file: string): number | undefined {
    if (this.cache.has(file)) return this.cache.get(file);
    const name = moduleName(file);
    const level = this.rules.find((r) => r.re.test(name))?.level;
    this.cache.set(file, level);
    return level;
  }
}
