import { ConfigFileError, describeZodIssues, readConfigDocument } from '@keel/config-file';
import { z } from 'zod';
import { KEY_LENGTHS, keyCipher, type KeyCipher, type ProviderKind } from './providers.js';
import { keyRoot } from '../keys.js';
import { ValueTransformer } from './transformer.js';

const key = z.strictObject({ name: z.string(), secret: z.string() });
const keyed = z.strictObject({ keys: z.array(key).min(1, 'expected at least one key') });
const provider = z.strictObject({
  aescbc: keyed.optional(),
  aesgcm: keyed.optional(),
  secretbox: keyed.optional(),
  identity: z.strictObject({}).optional(),
  kms: z.record(z.string(), z.unknown()).optional(),
});
const schema = z.strictObject({
  apiVersion: z.literal('apiserver.config.k8s.io/v1'),
  kind: z.literal('EncryptionConfiguration'),
  resources: z
    .array(
      z.strictObject({
        resources: z.array(z.string()).min(1, 'expected at least one resource'),
        providers: z.array(provider).min(1, 'expected at least one provider'),
      }),
    )
    .min(1, 'expected at least one resources entry'),
});

/** One `resources` entry: which group/resources it covers, and their transformer. */
interface Rule {
  /** `resource` (core), `resource.group`, `*.` (all core), `*.group` or `*.*`. */
  readonly names: readonly string[];
  readonly transformer: ValueTransformer;
}

/**
 * The parsed --encryption-provider-config: answers, for a storage key, the transformer of the
 * first entry that names its resource (or none: stored as plain JSON).
 */
export class EncryptionConfig {
  private readonly cache = new Map<string, ValueTransformer | null>();

  constructor(
    private readonly rules: readonly Rule[],
    /** The group a served resource belongs to ('' for the core group); keys are `/<resource>/...`. */
    private readonly groupOf: (resource: string) => string | undefined = () => '',
  ) {}

  withGroups(groupOf: (resource: string) => string | undefined): EncryptionConfig {
    return new EncryptionConfig(this.rules, groupOf);
  }

  transformerFor(storageKey: string): ValueTransformer | undefined {
    const resource = keyRoot(storageKey).slice(1);
    let t = this.cache.get(resource);
    if (t === undefined) {
      t = this.lookup(resource) ?? null;
      this.cache.set(resource, t);
    }
    return t ?? undefined;
  }

  private lookup(resource: string): ValueTransformer | undefined {
    const group = this.groupOf(resource);
    if (group === undefined) return undefined;
    const qualified = group === '' ? resource : `${resource}.${group}`;
    for (const r of this.rules) {
      for (const n of r.names) {
        if (n === '*.*' || n === qualified || n === `*.${group}`) return r.transformer;
      }
    }
    return undefined;
  }
}

function decodeKey(
  kind: ProviderKind,
  at: string,
  k: { name: string; secret: string },
  problems: string[],
): KeyCipher | undefined {
  if (k.name === '') problems.push(`${at}.name: required`);
  if (k.name.includes(':')) problems.push(`${at}.name: must not contain ":"`);
  const secret = Buffer.from(k.secret, 'base64');
  if (k.secret === '' || secret.toString('base64') !== k.secret.replace(/\s/g, '')) {
    problems.push(`${at}.secret: must be base64`);
    return undefined;
  }
  if (!KEY_LENGTHS[kind].includes(secret.length)) {
    problems.push(
      `${at}.secret: secret is not of the expected length, got ${secret.length}, expected one of [${KEY_LENGTHS[kind].join(' ')}]`,
    );
    return undefined;
  }
  return keyCipher(kind, k.name, secret);
}

const RESOURCE = /^(\*\.\*|\*\.([a-z0-9.-]*)|[a-z0-9-]+(\.[a-z0-9.-]+)?)$/;

/** Validates an already decoded document; problems name the field, as kube's validation does. */
export function parseEncryptionConfig(doc: unknown, where: string): EncryptionConfig {
  const parsed = schema.safeParse(doc, { reportInput: true });
  if (!parsed.success)
    throw new ConfigFileError(`${where}: ${describeZodIssues(parsed.error.issues).join('; ')}`);
  const problems: string[] = [];
  const rules = parsed.data.resources.map((entry, i): Rule => {
    entry.resources.forEach((n, j) => {
      if (!RESOURCE.test(n))
        problems.push(`resources[${i}].resources[${j}]: not a resource, *.group or *.*: "${n}"`);
    });
    const providers = entry.providers.flatMap((p, j): (KeyCipher | 'identity')[] => {
      const at = `resources[${i}].providers[${j}]`;
      const kinds = Object.keys(p).filter((k) => p[k as keyof typeof p] !== undefined);
      if (kinds.length !== 1) {
        problems.push(
          `${at}: exactly one provider type must be set, got ${kinds.length === 0 ? 'none' : kinds.join(', ')}`,
        );
        return [];
      }
      if (p.kms) {
        problems.push(`${at}.kms: KMS providers are not supported by Keel; use aescbc, aesgcm or secretbox`);
        return [];
      }
      if (p.identity) return ['identity'];
      const kind = kinds[0] as ProviderKind;
      const keys = p[kind]?.keys ?? [];
      const names = new Set<string>();
      return keys.flatMap((k, n) => {
        if (names.has(k.name)) problems.push(`${at}.${kind}.keys[${n}].name: duplicate key name "${k.name}"`);
        names.add(k.name);
        const c = decodeKey(kind, `${at}.${kind}.keys[${n}]`, k, problems);
        return c ? [c] : [];
      });
    });
    return { names: entry.resources, transformer: new ValueTransformer(providers) };
  });
  if (problems.length > 0) throw new ConfigFileError(`${where}: ${problems.join('; ')}`);
  return new EncryptionConfig(rules);
}

/** Reads --encryption-provider-config; a problem is one ConfigFileError line naming the file and field. */
export function loadEncryptionConfig(path: string): EncryptionConfig {
  const { file, doc } = readConfigDocument(path, 'encryption provider config file');
  return parseEncryptionConfig(doc, `encryption provider config file ${file}`);
}
