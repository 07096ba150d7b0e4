/**
 * The contract a served group/version of a resource fulfils, structurally a superset of the API
 * server registry's ResourceView (apps/apiserver/src/registry/resource-view.ts): the registry
 * reads what it knows and may use the rest (invalidKind, prepareForCreate/prepareForUpdate).
 * Packages add what their resources need on top (patch schemas, label conversion, status hooks).
 */
import type { FieldError, FieldLabelConverter, GroupKind, SmpSchema } from '@keel/apimachinery';
import type { ObjectMeta } from './object-meta.js';
import type { TableColumn } from './table-util.js';
import { decodeTyped, groupVersionString, type KindTarget } from './type-meta.js';
import { encodeStruct } from './wire-encode.js';
import type { StructSpec } from './wire-spec.js';

export interface Decoded<I> {
  readonly object: I;
  /** JSON paths of fields the schema does not know, in body order (fieldValidation). */
  readonly unknownFields: readonly string[];
  /** Never set by the decoders here: duplicate keys are gone once the body is parsed. */
  readonly duplicateFields?: readonly string[];
}

export interface StoredObject {
  metadata: ObjectMeta;
}

export interface ResourceView<I extends StoredObject> {
  readonly group: string;
  readonly version: string;
  /** `group/version`, or just the version for the core group. */
  readonly apiVersion: string;
  readonly resource: string;
  readonly kind: string;
  readonly listKind: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly storageVersionHash?: string;
  readonly allowCreateOnUpdate: boolean;
  /** False: a PUT without metadata.resourceVersion is a 422. */
  readonly allowUnconditionalUpdate: boolean;
  /** The internal type's GroupKind, which names the object in 422 messages. */
  readonly invalidKind: GroupKind;
  /** Wire → stored form, with the version's defaults applied; throws a 400 StatusError. */
  decode(body: unknown): Decoded<I>;
  /** Stored → wire form, with kind and apiVersion, zero values written as Go writes them. */
  encode(obj: I): Record<string, unknown>;
  /** The strategy's PrepareForCreate; call after name generation, before validateCreate. */
  prepareForCreate(obj: I): void;
  /** The strategy's PrepareForUpdate (e.g. status kept from `old`); call before validateUpdate. */
  prepareForUpdate(obj: I, old: I): void;
  /** BeforeCreate: the strategy's rules, then (only if they pass) the generic metadata rules. */
  validateCreate(obj: I): FieldError[];
  /**
   * BeforeUpdate: the generic metadata rules, then the strategy's. The registry first copies
   * uid/creationTimestamp from `old` and, for an unconditional update, the stored
   * resourceVersion (as Go does), since metadata update validation demands one.
   */
  validateUpdate(obj: I, old: I): FieldError[];
  /** The field selector labels this version accepts. */
  readonly fieldLabels: readonly string[];
  /**
   * Checks and renames a selector label with the resource's own rules and messages (pods rename
   * `spec.host`); without it a label is checked against `fieldLabels`.
   */
  readonly convertFieldLabel?: FieldLabelConverter;
  /** Strategic merge patch strategies (pod conditions merge by type); ObjectMeta's without it. */
  readonly smpSchema?: SmpSchema;
  /** Every label with the object's value. */
  fields(obj: I): Record<string, string>;
  readonly tableColumns: readonly TableColumn[];
  /** One cell per column (the server always renders the wide form). */
  tableRow(obj: I, now: Date): unknown[];
}

/** What a view with a `<resource>/status` subresource does differently there. */
export interface StatusHooks<I extends StoredObject> {
  readonly prepareStatusUpdate: (obj: I, old: I) => void;
  readonly validateStatusUpdate: (obj: I, old: I) => FieldError[];
}

/** The `<resource>/status` subresource as a view of its own (get, patch, update). */
export function statusSubresourceView<I extends StoredObject, V extends ResourceView<I>>(
  view: V & StatusHooks<I>,
): V & StatusHooks<I> & { readonly subresource: 'status' } {
  return {
    ...view,
    subresource: 'status',
    verbs: ['get', 'patch', 'update'],
    allowCreateOnUpdate: false,
    prepareForUpdate: view.prepareStatusUpdate,
    validateUpdate: view.validateStatusUpdate,
  };
}

export interface Codec<I> {
  decode(body: unknown): Decoded<I>;
  encode(obj: I): Record<string, unknown>;
}

/** decode/encode over a wire schema whose first members are kind and apiVersion. */
export function wireCodec<I extends StoredObject>(
  target: KindTarget,
  spec: StructSpec,
  defaults?: (obj: I) => void,
): Codec<I> {
  const apiVersion = groupVersionString(target);
  return {
    decode(body) {
      const { value, unknownFields } = decodeTyped(body, target, spec);
      delete value['kind'];
      delete value['apiVersion'];
      // Decoded against the schema, so the members are the stored type's.
      const obj = value as unknown as I;
      obj.metadata ??= {};
      defaults?.(obj);
      return { object: obj, unknownFields };
    },
    encode(obj) {
      return encodeStruct(
        { ...(obj as unknown as Record<string, unknown>), kind: target.kind, apiVersion },
        spec,
      );
    },
  };
}
