import { StorageError } from './errors.js';

/**
 * Continue tokens in Kubernetes' format (storage/continue.go), opaque to clients:
 * base64url without padding of {"v":"meta.k8s.io/v1","rv":<rv>,"start":"<key after prefix>"}.
 * rv -1 means "continue at the latest revision" (handed out with an Expired error).
 */
const version = 'meta.k8s.io/v1';

export interface ContinuePosition {
  /** The full key to start from (inclusive). */
  readonly start: string;
  /** The revision the list is served at; -1 = the latest. */
  readonly rv: number;
  /** Items of the snapshot before `start`, when the token carries it (Keel's own tokens do). */
  readonly offset?: number;
}

const invalid = (detail: string): StorageError =>
  new StorageError('InvalidContinue', `continue key is not valid: ${detail}`);

/** `start` is a full key; the token keeps only the part after `keyPrefix`. */
export function encodeContinue(start: string, keyPrefix: string, rv: number, offset?: number): string {
  const rel = start.startsWith(keyPrefix) ? start.slice(keyPrefix.length) : start;
  // `o` is Keel's addition (clients treat tokens as opaque): it keeps remainingItemCount cheap.
  const token =
    offset === undefined ? { v: version, rv, start: rel } : { v: version, rv, start: rel, o: offset };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/** Rejects keys that would climb above `keyPrefix` once appended to it (path traversal). */
function isClean(rel: string): boolean {
  const key = rel.startsWith('/') ? rel : `/${rel}`;
  if (key === '/') return true;
  if (key.endsWith('/')) return false;
  return key
    .slice(1)
    .split('/')
    .every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

export function decodeContinue(token: string, keyPrefix: string): ContinuePosition {
  if (!/^[A-Za-z0-9_-]*$/.test(token)) throw invalid('illegal base64 data');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw invalid(err instanceof Error ? err.message : String(err));
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid('not a JSON object');
  const { v, rv, start, o } = parsed as { v?: unknown; rv?: unknown; start?: unknown; o?: unknown };
  if (v !== version) throw invalid('server does not recognize this encoded version');
  if (typeof rv !== 'number' || !Number.isSafeInteger(rv) || rv === 0 || rv < -1) {
    throw invalid(`incorrect encoded start resourceVersion (version ${version})`);
  }
  if (typeof start !== 'string' || start === '')
    throw invalid(`encoded start key empty (version ${version})`);
  if (!isClean(start)) throw invalid(start);
  const rel = start.startsWith('/') ? start.slice(1) : start;
  const offset = typeof o === 'number' && Number.isSafeInteger(o) && o >= 0 ? o : undefined;
  return offset === undefined ? { start: keyPrefix + rel, rv } : { start: keyPrefix + rel, rv, offset };
}
