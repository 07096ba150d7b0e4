/**
 * Query parameters as Go's url.Values conversions read them: the first value wins, booleans
 * are false only for `0` or `false` (any case; an empty value is true), integers are decimal
 * int64 with strconv's error text.
 */
import { badRequest } from './errors.js';
import { GoNumError, isGoPrintable, parseGoInt64 } from './go-format.js';

export function queryString(params: URLSearchParams, name: string): string {
  return params.get(name) ?? '';
}

/** All values of a repeatable parameter (`dryRun=All&dryRun=All`). */
export function queryStrings(params: URLSearchParams, name: string): string[] {
  return params.getAll(name);
}

function goBool(raw: string): boolean {
  return !(raw === '0' || raw.toLowerCase() === 'false');
}

/** Absent is false. */
export function queryBool(params: URLSearchParams, name: string): boolean {
  const raw = params.get(name);
  return raw === null ? false : goBool(raw);
}

/** Absent is undefined (a Go *bool left nil). */
export function queryOptionalBool(params: URLSearchParams, name: string): boolean | undefined {
  const raw = params.get(name);
  return raw === null ? undefined : goBool(raw);
}

function int64(raw: string): number {
  try {
    return Number(parseGoInt64(raw));
  } catch (err) {
    if (err instanceof GoNumError) throw badRequest(err.message);
    throw err;
  }
}

/** Absent is 0; a value that is not an int64 is a 400 (`strconv.ParseInt: parsing "x": invalid syntax`). */
export function queryInt64(params: URLSearchParams, name: string): number {
  const raw = params.get(name);
  return raw === null ? 0 : int64(raw);
}

/** Absent is undefined (a Go *int64 left nil). */
export function queryOptionalInt64(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  return raw === null ? undefined : int64(raw);
}

/**
 * Whether to indent the response: `?pretty` parsed with strconv.ParseBool (unparsable means
 * false), otherwise on for curl, Wget and browsers.
 */
export function isPrettyPrint(params: URLSearchParams, userAgent = ''): boolean {
  const pretty = params.get('pretty');
  if (pretty) return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(pretty);
  return userAgent.startsWith('curl') || userAgent.startsWith('Wget') || userAgent.startsWith('Mozilla/5.0');
}

export const fieldManagerMaxLength = 128;

/** The default field manager: the User-Agent up to its first `/`, printable runes, ≤128 bytes. */
export function fieldManagerFromUserAgent(userAgent: string): string {
  const head = userAgent.split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    if (!isGoPrintable(ch)) continue;
    const len = Buffer.byteLength(ch, 'utf8');
    if (bytes + len > fieldManagerMaxLength) break;
    out += ch;
    bytes += len;
  }
  return out;
}
