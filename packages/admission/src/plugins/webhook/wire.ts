/**
 * The wire (versioned JSON) form webhooks see. The registry gives admission its view's codec; a
 * caller without one gets the stored form with the request's kind and apiVersion.
 */
import type { AdmissionAttributes, AdmittedObject, ObjectCodec } from '../../attributes.js';

export function wireCodecOf(attrs: AdmissionAttributes): ObjectCodec {
  if (attrs.codec) return attrs.codec;
  const { group, version, kind } = attrs.kind;
  const apiVersion = group === '' ? version : `${group}/${version}`;
  return {
    encode: (obj) => ({ kind, apiVersion, ...(obj as unknown as Record<string, unknown>) }),
    decode: (wire) => {
      const obj = { ...(wire as Record<string, unknown>) };
      delete obj['kind'];
      delete obj['apiVersion'];
      return obj as unknown as AdmittedObject;
    },
  };
}

/** Makes `target` the object `source` is, in place (the registry holds `target`). */
export function replaceContents(target: AdmittedObject, source: AdmittedObject): void {
  const t = target as unknown as Record<string, unknown>;
  for (const k of Object.keys(t)) delete t[k];
  Object.assign(t, source);
}
