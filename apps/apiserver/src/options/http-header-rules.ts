/**
 * Checks for the two header-shaping flags of the generic server, kept apart from the options class
 * because they are the only parts with real parsing in them.
 */

/**
 * Each origin must compile and, as kube-apiserver insists since CVE-2022-1996, pin both ends of the
 * host: '^' or '//' at the start, '$' or ':' at the end. Otherwise `example.com` would also allow
 * `example.com.evil.io`.
 */
export function checkCorsOrigins(flag: string, patterns: readonly string[]): string[] {
  return patterns.flatMap((p) => {
    if (p === '') return [`--${flag} has an empty value`];
    try {
      new RegExp(p);
    } catch (err) {
      return [`--${flag} ${JSON.stringify(p)} is not a valid regular expression: ${(err as Error).message}`];
    }
    const pinsStart = p.includes('^') || p.includes('//');
    const pinsEnd = p.includes('$') || p.includes(':');
    if (!pinsStart || !pinsEnd) {
      return [
        `--${flag} ${JSON.stringify(p)} does not pin to the start and end of the host: ` +
          `anchor it with '^' or '//' and with '$' or ':'`,
      ];
    }
    return [];
  });
}

const MAX_AGE = /^max-age=\d+$/i;
const NAMED = ['includesubdomains', 'preload'];

function directiveKey(d: string): string {
  return MAX_AGE.test(d) ? 'max-age' : d.toLowerCase();
}

/** RFC 6797 section 6.1: max-age=<seconds> is required, includeSubDomains and preload are optional, none twice. */
export function checkHstsDirectives(flag: string, directives: readonly string[]): string[] {
  if (directives.length === 0) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const d of directives) {
    if (!MAX_AGE.test(d) && !NAMED.includes(d.toLowerCase())) {
      out.push(
        `--${flag} ${JSON.stringify(d)} is not valid; allowed directives: max-age=<seconds>, includeSubDomains, preload`,
      );
      continue;
    }
    const key = directiveKey(d);
    if (seen.has(key)) out.push(`--${flag} gives ${key} more than once`);
    seen.add(key);
  }
  if (!directives.some((d) => MAX_AGE.test(d))) out.push(`--${flag} must include max-age=<seconds>`);
  return out;
}

/** The Strict-Transport-Security header value the directives make, or undefined for none. */
export function hstsHeader(directives: readonly string[]): string | undefined {
  return directives.length === 0 ? undefined : directives.join('; ');
}
