/**
 * The contract a served resource of this package fulfils: @keel/resource's ResourceView plus
 * what the API server's registry may use for core kinds (discovery categories, strategic merge
 * patch schema, field label conversion).
 */
import type { FieldLabelConverter, SmpSchema } from '@keel/apimachinery';
import type { ResourceView, StoredObject } from '@keel/resource';

export interface CoreResourceView<I extends StoredObject> extends ResourceView<I> {
  readonly categories: readonly string[];
  /** Patch strategies for strategic merge patch. */
  readonly smpSchema: SmpSchema;
  /** Checks and renames a selector label (errors carry the real server's text). */
  readonly convertFieldLabel: FieldLabelConverter;
}
