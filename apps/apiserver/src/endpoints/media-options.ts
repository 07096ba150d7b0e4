/**
 * The reference's content negotiation for an API response (negotiation.NegotiateMediaTypeOptions
 * with a RequestScope's EndpointRestrictions): the Accept clauses in goautoneg's order, each
 * tried against the serializers in their order (JSON, YAML, protobuf); the first pair whose
 * parameters the endpoint allows decides the encoding and any `as=` conversion (Table,
 * PartialObjectMetadata, PartialObjectMetadataList of meta.k8s.io v1 or v1beta1).
 */
import { parseAccept, type MediaRange } from './discovery/media-type.js';

export type Encoding = 'json' | 'yaml' | 'protobuf';
export type ConvertKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
export type MetaVersion = 'v1' | 'v1beta1';

export interface Convert {
  readonly kind: ConvertKind;
  readonly version: MetaVersion;
}

export interface MediaTypeOptions {
  readonly encoding: Encoding;
  /** The `as=` target; undefined for the object itself. */
  readonly convert?: Convert;
  /** `pretty=1` on the clause: indented, as `?pretty=true` would. */
  readonly pretty?: boolean;
}

export interface Restrictions {
  /** Whether the protobuf serializer may answer (false: the object has no message in Keel). */
  readonly protobuf: boolean;
  /**
   * Whether `as=` conversions are served: true for a resource endpoint (RequestScope), false
   * for errors and discovery (DefaultEndpointRestrictions, which skip any clause with one).
   */
  readonly conversions: boolean;
  /** Whether `as=Table` is among them (false: the storage has no table convertor, e.g. reviews). */
  readonly tables: boolean;
}

interface Serializer {
  readonly encoding: Encoding;
  readonly type: string;
  readonly subtype: string;
  /** Whether it has a stream serializer (`stream=watch`): YAML has none. */
  readonly streams: boolean;
}

const SERIALIZERS: readonly Serializer[] = [
  { encoding: 'json', type: 'application', subtype: 'json', streams: true },
  { encoding: 'yaml', type: 'application', subtype: 'yaml', streams: false },
  { encoding: 'protobuf', type: 'application', subtype: 'vnd.kubernetes.protobuf', streams: true },
];

function clauseMatches(c: MediaRange, s: Serializer): boolean {
  if (c.type === '*' && c.subtype === '*') return true;
  return c.type === s.type && (c.subtype === s.subtype || c.subtype === '*');
}

/**
 * acceptMediaTypeOptions: any of `as`, `g`, `v` asks for a conversion (a missing one is empty,
 * so `g` and `v` alone name no kind the server converts to); undefined means skip the pair.
 */
function acceptOptions(c: MediaRange, s: Serializer, r: Restrictions): MediaTypeOptions | undefined {
  const options = convertOptions(c, s, r);
  return options && c.params['pretty'] === '1' ? { ...options, pretty: true } : options;
}

function convertOptions(c: MediaRange, s: Serializer, r: Restrictions): MediaTypeOptions | undefined {
  const { as, g, v, stream, sv } = c.params;
  if (stream !== undefined && stream !== '' && (!s.streams || stream !== 'watch')) return undefined;
  // AllowsServerVersion: the scope's meta group version, v1.
  if (sv !== undefined && sv !== '' && sv !== 'v1') return undefined;
  if (as === undefined && g === undefined && v === undefined) {
    return s.encoding === 'protobuf' && !r.protobuf ? undefined : { encoding: s.encoding };
  }
  if (!r.conversions || g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) return undefined;
  switch (as) {
    case 'Table':
      // Table has no protobuf message.
      return s.encoding === 'protobuf' || !r.tables
        ? undefined
        : { encoding: s.encoding, convert: { kind: as, version: v } };
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return { encoding: s.encoding, convert: { kind: as, version: v } };
    default:
      return undefined;
  }
}

/**
 * Accept headers that pick plain JSON under any restrictions: what the loop below concludes for
 * them. Every resource request negotiates (more than once: its check, then its response), and
 * these are what most clients send, so they skip the parse.
 */
const PLAIN_JSON_ACCEPTS = new Set(['', '*/*', 'application/json', 'application/json, */*']);
const PLAIN_JSON: MediaTypeOptions = { encoding: 'json' };

/** What the Accept header picks; an absent or empty one is the first serializer (JSON). */
export function negotiateMediaOptions(
  accept: string | undefined,
  restrictions: Restrictions,
): MediaTypeOptions | undefined {
  if (accept === undefined || PLAIN_JSON_ACCEPTS.has(accept)) return PLAIN_JSON;
  for (const c of parseAccept(accept)) {
    for (const s of SERIALIZERS) {
      if (!clauseMatches(c, s)) continue;
      const options = acceptOptions(c, s, restrictions);
      if (options) return options;
    }
  }
  return undefined;
}

/** A resource endpoint's negotiation: conversions allowed. */
export const RESOURCE: Restrictions = { protobuf: true, conversions: true, tables: true };
/** An endpoint whose storage prints no Table (TableConvertor nil: reviews, Binding, TokenRequest). */
export const NO_TABLES: Restrictions = { protobuf: true, conversions: true, tables: false };
/** Errors and discovery documents: no conversion (DefaultEndpointRestrictions). */
export const PLAIN: Restrictions = { protobuf: true, conversions: false, tables: false };
