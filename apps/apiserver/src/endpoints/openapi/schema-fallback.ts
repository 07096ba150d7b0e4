/**
 * Schemas for served kinds whose full schema Keel does not publish yet: an object with type and
 * object metadata whose other fields are preserved as sent. Clients validating against it accept
 * any field, which beats refusing to serve the resource at all.
 */
import { definitionName } from './operations.js';
import { listMetaField, meta, typeMeta } from './schema-meta.js';
import { arrayOf, gvkExtension, object, ref, type Definitions, type Schema } from './schema.js';
import type { OpenAPIView } from './operations.js';

export function fallbackDefinitions(views: readonly OpenAPIView[], known: Definitions): Definitions {
  const out: Record<string, Schema> = {};
  for (const v of views) {
    const item = definitionName(v.group, v.version, v.kind);
    const list = definitionName(v.group, v.version, v.listKind);
    const gvk = (kind: string) => gvkExtension({ group: v.group, version: v.version, kind });
    if (!known[item]) {
      out[item] = {
        ...object(`${v.kind}: its full schema is not published by Keel yet; fields are preserved as sent.`, {
          ...typeMeta,
          metadata: ref(`${meta}.ObjectMeta`, "Standard object's metadata.", { default: {} }),
        }),
        'x-kubernetes-preserve-unknown-fields': true,
        ...gvk(v.kind),
      };
    }
    if (!known[list] && v.verbs.includes('list')) {
      out[list] = {
        ...object(
          `${v.listKind} is a list of ${v.kind}.`,
          {
            ...typeMeta,
            items: arrayOf(ref(item, undefined, { default: {} }), 'List of objects.'),
            metadata: listMetaField,
          },
          { required: ['items'] },
        ),
        ...gvk(v.listKind),
      };
    }
  }
  return out;
}
