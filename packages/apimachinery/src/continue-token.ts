/**
 * List continue tokens (apiserver storage/continue.go): unpadded base64url of
 * `{"v":"meta.k8s.io/v1","rv":<int64>,"start":"<key after prefix>"}`. Clients treat the token as
 * opaque; the format is the upstream one so tokens look and fail like a real server's.
 */
import { badRequest, expired, type StatusError } from './errors.js';
import { goJsonKind, goJsonMarshal } from './go-format.js';
import { goBase64UrlDecode } from './go-base64.js';
import { goJsonSyntaxError } from './go-json-syntax.js';
import { goPathClean } from './go-path.js';

export const continueTokenVersion = 'meta.k8s.io/v1';

const notValid = 'continue key is not valid';

export interface DecodedContinue {
  /** keyPrefix + the cleaned start key. */
  readonly fromKey: string;
  /** The snapshot revision; -1 means "continue at the latest revision". */
  readonly rv: number;
}

/** Builds the token for a list continuing at `key` (which must start with `keyPrefix`). */
export function encodeContinue(key: string, keyPrefix: string, resourceVersion: number): string {
  // Unlike Go, an empty prefix is allowed and means the key is already relative.
  if (!key.startsWith(keyPrefix) || (keyPrefix !== '' && key === keyPrefix)) {
    throw new Error('unable to encode next field: the key and key prefix do not match');
  }
  const json = goJsonMarshal({ v: continueTokenVersion, rv: resourceVersion, start: key.slice(keyPrefix.length) });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** Go's json.Unmarshal into the continueToken struct, with its type-error texts. */
function unmarshalToken(data: Buffer): { v: string; rv: number; start: string } {
  const syntax = goJsonSyntaxError(data);
  const text = data.toString('utf8');
  if (syntax !== undefined) throw new Error(syntax);
  const parsed: unknown = JSON.parse(text);
  const out = { v: '', rv: 0, start: '' };
  if (parsed === null) return out;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type storage.continueToken`);
  }
  const typeError = (field: string, value: unknown, goType: string, detail = goJsonKind(value)): Error =>
    new Error(`json: cannot unmarshal ${detail} into Go struct field continueToken.${field} of type ${goType}`);
  // Go matches JSON keys to struct fields case-insensitively, later keys winning.
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const field = key.toLowerCase();
    if (value === null || !['v', 'rv', 'start'].includes(field)) continue;
    if (field === 'rv') {
      if (typeof value !== 'number') throw typeError('rv', value, 'int64');
      if (!Number.isInteger(value) || Math.abs(value) > 2 ** 63) throw typeError('rv', value, 'int64', `number ${String(value)}`);
      out.rv = value;
    } else {
      if (typeof value !== 'string') throw typeError(field, value, 'string');
      out[field as 'v' | 'start'] = value;
    }
  }
  return out;
}

/** Go's DecodeContinue; the error text is what follows `invalid continue token: `. */
function decode(token: string, keyPrefix: string): DecodedContinue {
  let data: Buffer;
  try {
    data = goBase64UrlDecode(token);
  } catch (err) {
    throw new Error(`${notValid}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let c: { v: string; rv: number; start: string };
  try {
    c = unmarshalToken(data);
  } catch (err) {
    throw new Error(`${notValid}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (c.v !== continueTokenVersion) throw new Error(`${notValid}: server does not recognize this encoded version ${c.v}`);
  if (c.rv === 0) throw new Error(`${notValid}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`);
  if (c.start.length === 0) throw new Error(`${notValid}: encoded start key empty (version meta.k8s.io/v1)`);
  // path.Clean keeps a client from escaping the prefix with `..` segments.
  const key = c.start.startsWith('/') ? c.start : `/${c.start}`;
  const cleaned = goPathClean(key);
  if (cleaned !== key) throw new Error(`${notValid}: ${c.start}`);
  return { fromKey: keyPrefix + cleaned.slice(1), rv: c.rv };
}

/** Decodes `?continue=`; a garbled token is a 400 `invalid continue token: ...`. */
export function decodeContinue(token: string, keyPrefix = ''): DecodedContinue {
  try {
    return decode(token, keyPrefix);
  } catch (err) {
    throw badRequest(`invalid continue token: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const continueExpiredMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.';
const inconsistentContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, ' +
  'or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an ' +
  'inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/**
 * The 410 for a token whose revision was compacted. With the key the next page would start at,
 * the Status carries a fresh token with rv -1 (continue at the latest revision).
 */
export function continueExpired(continueKey?: string, keyPrefix = ''): StatusError {
  if (continueKey === undefined) return expired(continueExpiredMessage);
  let token: string;
  try {
    token = encodeContinue(continueKey, keyPrefix, -1);
  } catch {
    return expired(continueExpiredMessage);
  }
  return expired(inconsistentContinueMessage, { continue: token });
}

/** 410 for a list at a compacted revision. */
export function listResourceVersionExpired(): StatusError {
  return expired('The resourceVersion for the provided list is too old.');
}

/** 410 for a watch from a compacted revision (store path). */
export function watchResourceVersionExpired(): StatusError {
  return expired('The resourceVersion for the provided watch is too old.');
}

/** 410 from the watch cache: `too old resource version: <requested> (<oldest - 1>)`. */
export function tooOldResourceVersion(requested: number, oldestAvailable: number): StatusError {
  return expired(`too old resource version: ${requested} (${oldestAvailable - 1})`);
}
