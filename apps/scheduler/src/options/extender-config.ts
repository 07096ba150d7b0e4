import { fieldErrorString, invalidValue, isQualifiedName } from '@keel/apimachinery';
import { isExtendedResourceName } from '@keel/coreapi';
import { Duration } from '@keel/flags';
import { z } from 'zod';

/**
 * One entry of the configuration's `extenders` (kube-scheduler config/v1 Extender): a remote HTTP
 * service the scheduler calls at filter, prioritize, bind and preempt time. As in kube, nothing is
 * defaulted in the file; unset fields read as their zero value, and an `httpTimeout` of 0 means
 * the extender client's own default (5s).
 */
export interface ExtenderTLSConfig {
  readonly insecure: boolean;
  readonly serverName: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly caFile: string;
  /** PEM bytes, base64 in the file as Go writes []byte; the *Data fields win over the *File ones. */
  readonly certData: string;
  readonly keyData: string;
  readonly caData: string;
}

export interface ExtenderManagedResource {
  readonly name: string;
  /** NodeResourcesFit does not check this resource (the extender does). */
  readonly ignoredByScheduler: boolean;
}

export interface Extender {
  readonly urlPrefix: string;
  readonly filterVerb: string;
  readonly preemptVerb: string;
  readonly prioritizeVerb: string;
  readonly weight: number;
  readonly bindVerb: string;
  readonly enableHTTPS: boolean;
  readonly tlsConfig?: ExtenderTLSConfig;
  readonly httpTimeout: Duration;
  readonly nodeCacheCapable: boolean;
  readonly managedResources: readonly ExtenderManagedResource[];
  readonly ignorable: boolean;
}

const duration = z.string().transform((text, ctx) => {
  try {
    return Duration.parse(text);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

// Go decodes []byte from standard base64 and refuses anything else.
const bytes = z
  .string()
  .refine((s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s), {
    message: 'must be base64 (PEM bytes, as Go encodes []byte)',
  });

const tlsConfigSchema = z.strictObject({
  insecure: z.boolean().optional(),
  serverName: z.string().optional(),
  certFile: z.string().optional(),
  keyFile: z.string().optional(),
  caFile: z.string().optional(),
  certData: bytes.optional(),
  keyData: bytes.optional(),
  caData: bytes.optional(),
});

/** An extender as written in the file; config-schema.ts uses it for `extenders[i]`. */
export const extenderSchema = z.strictObject({
  urlPrefix: z.string(),
  filterVerb: z.string().optional(),
  preemptVerb: z.string().optional(),
  prioritizeVerb: z.string().optional(),
  weight: z.int().optional(),
  bindVerb: z.string().optional(),
  enableHTTPS: z.boolean().optional(),
  tlsConfig: tlsConfigSchema.optional(),
  httpTimeout: duration.optional(),
  nodeCacheCapable: z.boolean().optional(),
  managedResources: z
    .array(z.strictObject({ name: z.string(), ignoredByScheduler: z.boolean().optional() }))
    .optional(),
  ignorable: z.boolean().optional(),
});

export type ExtenderFile = z.output<typeof extenderSchema>;

/** The effective extender: every field present, zero values where the file had none. */
export function defaultExtender(e: ExtenderFile): Extender {
  const t = e.tlsConfig;
  return {
    urlPrefix: e.urlPrefix,
    filterVerb: e.filterVerb ?? '',
    preemptVerb: e.preemptVerb ?? '',
    prioritizeVerb: e.prioritizeVerb ?? '',
    weight: e.weight ?? 0,
    bindVerb: e.bindVerb ?? '',
    enableHTTPS: e.enableHTTPS ?? false,
    ...(t
      ? {
          tlsConfig: {
            insecure: t.insecure ?? false,
            serverName: t.serverName ?? '',
            certFile: t.certFile ?? '',
            keyFile: t.keyFile ?? '',
            caFile: t.caFile ?? '',
            certData: t.certData ?? '',
            keyData: t.keyData ?? '',
            caData: t.caData ?? '',
          },
        }
      : {}),
    httpTimeout: e.httpTimeout ?? Duration.zero,
    nodeCacheCapable: e.nodeCacheCapable ?? false,
    managedResources: (e.managedResources ?? []).map((r) => ({
      name: r.name,
      ignoredByScheduler: r.ignoredByScheduler ?? false,
    })),
    ignorable: e.ignorable ?? false,
  };
}

/** For `--write-config-to`: the duration in Go's format. */
export function serializeExtender(e: Extender): Record<string, unknown> {
  return { ...e, httpTimeout: e.httpTimeout.toString() };
}

/** kube's validateExtendedResourceName, in field.Error wording. */
function extendedResourceNameErrors(path: string, name: string): string[] {
  const qualified = isQualifiedName(name).map((msg) => fieldErrorString(invalidValue(path, name, msg)));
  if (qualified.length > 0) return qualified;
  return isExtendedResourceName(name)
    ? []
    : [fieldErrorString(invalidValue(path, name, 'is an invalid extended resource name'))];
}

/**
 * kube's validateExtenders: a prioritizing extender needs a positive weight, at most one extender
 * binds, and managed resources are extended resource names, each managed by one extender only.
 */
export function validateExtenders(extenders: readonly Extender[]): string[] {
  const errs: string[] = [];
  const managed = new Set<string>();
  let binders = 0;
  extenders.forEach((e, i) => {
    const path = `extenders[${i}]`;
    if (e.prioritizeVerb !== '' && e.weight <= 0) {
      errs.push(
        fieldErrorString(
          invalidValue(`${path}.weight`, e.weight, 'must have a positive weight applied to it'),
        ),
      );
    }
    if (e.bindVerb !== '') binders++;
    e.managedResources.forEach((r, j) => {
      const namePath = `${path}.managedResources[${j}].name`;
      errs.push(...extendedResourceNameErrors(namePath, r.name));
      if (managed.has(r.name)) {
        errs.push(
          fieldErrorString(invalidValue(namePath, r.name, 'duplicate extender managed resource name')),
        );
      }
      managed.add(r.name);
    });
  });
  if (binders > 1) {
    errs.push(
      fieldErrorString(
        invalidValue(
          'extenders',
          `found ${binders} extenders implementing bind`,
          'only one extender can implement bind',
        ),
      ),
    );
  }
  return errs;
}
