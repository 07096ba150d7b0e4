import { flagTypes as t, parseGoBool, type NamedFlagSets, type OptionsGroup } from '@keel/flags';

/**
 * Every group/version Keel installs, in /apis order; `v1` is the legacy core group. Exactly
 * these: anything else is refused as unknown, the server will not start with an installed
 * group/version missing here, and runtime-config.test.ts fails when one listed is not served.
 */
export const SERVED_GROUP_VERSIONS = [
  'v1',
  'apps/v1',
  'events.k8s.io/v1',
  'authentication.k8s.io/v1',
  'authorization.k8s.io/v1',
  'policy/v1',
  'rbac.authorization.k8s.io/v1',
  'storage.k8s.io/v1',
  'admissionregistration.k8s.io/v1',
  'scheduling.k8s.io/v1',
  'coordination.k8s.io/v1',
  'flowcontrol.apiserver.k8s.io/v1',
  // On by default though beta (see BETA_ON_BY_DEFAULT): what 1.20-1.28 clients ask for.
  'flowcontrol.apiserver.k8s.io/v1beta3',
  'flowcontrol.apiserver.k8s.io/v1beta2',
  'flowcontrol.apiserver.k8s.io/v1beta1',
  // On by default though beta: the PodDisruptionBudget version 1.20's scheduler informs on.
  'policy/v1beta1',
  // Off unless enabled: older SelfSubjectReview versions kubectl auth whoami falls back to.
  'authentication.k8s.io/v1beta1',
  'authentication.k8s.io/v1alpha1',
] as const;

/**
 * Beta group/versions served without --runtime-config: policy/v1beta1 and the flowcontrol betas that the releases
 * whose clients Keel serves (1.20 on) had on by default, before betas became opt-in. api/beta
 * and the group/version keys switch them like any other.
 */
export const BETA_ON_BY_DEFAULT: ReadonlySet<string> = new Set([
  'flowcontrol.apiserver.k8s.io/v1beta3',
  'flowcontrol.apiserver.k8s.io/v1beta2',
  'flowcontrol.apiserver.k8s.io/v1beta1',
  'policy/v1beta1',
]);

export interface ApiEnablementConfig {
  /** Every served group/version and whether it is on. */
  readonly groupVersions: ReadonlyMap<string, boolean>;
  /** Explicit per-resource switches, keyed `<groupVersion>/<resource>`. */
  readonly resources: ReadonlyMap<string, boolean>;
  /** False for anything Keel does not serve. Closures: safe to pass around detached. */
  readonly isEnabled: (groupVersion: string) => boolean;
  /** A resource's own switch wins over its group/version's. */
  readonly isResourceEnabled: (groupVersion: string, resource: string) => boolean;
}

type Stability = 'ga' | 'beta' | 'alpha';
const MATCHERS = ['api/ga', 'api/beta', 'api/alpha'] as const;

function stability(groupVersion: string): Stability {
  const version = groupVersion.slice(groupVersion.lastIndexOf('/') + 1);
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  return 'ga';
}

function groupOf(groupVersion: string): string {
  const slash = groupVersion.lastIndexOf('/');
  return slash === -1 ? '' : groupVersion.slice(0, slash);
}

const SERVED_GROUPS = new Set(SERVED_GROUP_VERSIONS.map(groupOf));

type Entry =
  | { kind: 'all' | 'matcher'; key: string; on: boolean }
  | { kind: 'version' | 'resource'; key: string; groupVersion: string; resource: string; on: boolean };

/** Parses the keys and values, collecting every problem; unknown group/versions are reported, not returned. */
function parseRuntimeConfig(config: ReadonlyMap<string, string>): { entries: Entry[]; errors: string[] } {
  const entries: Entry[] = [];
  const errors: string[] = [];
  const unknownGroups: string[] = [];
  for (const [key, value] of config) {
    let on: boolean;
    try {
      // A bare key (`api/beta`) means true, as in kube-apiserver.
      on = value === '' ? true : parseGoBool(value);
    } catch (err) {
      errors.push(`--runtime-config: invalid value of ${key}: ${value}, err: ${(err as Error).message}`);
      continue;
    }
    if (key === 'api/all') {
      entries.push({ kind: 'all', key, on });
      continue;
    }
    if ((MATCHERS as readonly string[]).includes(key)) {
      entries.push({ kind: 'matcher', key, on });
      continue;
    }
    // The core group goes by `v1` as well as `api/v1`.
    const tokens = key === 'v1' ? ['api', 'v1'] : key.split('/');
    if ((tokens.length !== 2 && tokens.length !== 3) || tokens.some((s) => s === '')) {
      errors.push(`--runtime-config invalid key ${key}`);
      continue;
    }
    const [group = '', version = '', resource = ''] = tokens;
    // `api/<version>` names the legacy core group, whose group name is empty.
    const groupVersion = group === 'api' ? version : `${group}/${version}`;
    if (!SERVED_GROUPS.has(groupOf(groupVersion))) {
      if (!unknownGroups.includes(group)) unknownGroups.push(group);
      continue;
    }
    if (!(SERVED_GROUP_VERSIONS as readonly string[]).includes(groupVersion)) {
      errors.push(`--runtime-config: unknown group version ${group}/${version}`);
      continue;
    }
    entries.push({ kind: tokens.length === 3 ? 'resource' : 'version', key, groupVersion, resource, on });
  }
  if (unknownGroups.length > 0)
    errors.push(`--runtime-config: unknown api groups ${unknownGroups.join(',')}`);
  return { entries, errors };
}

/** kube's MergeAPIResourceConfigs order: api/all, then api/ga|beta|alpha, then group/versions, then resources. */
function resolve(entries: readonly Entry[]): ApiEnablementConfig {
  const versions = new Map<string, boolean>(
    SERVED_GROUP_VERSIONS.map((gv) => [gv, stability(gv) === 'ga' || BETA_ON_BY_DEFAULT.has(gv)]),
  );
  const resources = new Map<string, boolean>();
  const setAll = (on: boolean, which?: Stability) => {
    for (const gv of versions.keys()) if (!which || stability(gv) === which) versions.set(gv, on);
  };
  for (const e of entries) if (e.kind === 'all') setAll(e.on);
  for (const e of entries) if (e.kind === 'matcher') setAll(e.on, e.key.slice('api/'.length) as Stability);
  for (const e of entries) if (e.kind === 'version') versions.set(e.groupVersion, e.on);
  for (const e of entries) {
    if (e.kind !== 'resource') continue;
    resources.set(`${e.groupVersion}/${e.resource}`, e.on);
    // Serving one resource needs its group/version served.
    if (e.on) versions.set(e.groupVersion, true);
  }
  const isEnabled = (gv: string) => versions.get(gv) ?? false;
  return {
    groupVersions: versions,
    resources,
    isEnabled,
    isResourceEnabled: (gv, resource) => resources.get(`${gv}/${resource}`) ?? isEnabled(gv),
  };
}

export class ApiEnablementOptions implements OptionsGroup<{ apiEnablement?: ApiEnablementConfig }> {
  runtimeConfig: ReadonlyMap<string, string> = new Map();

  addFlags(fss: NamedFlagSets): void {
    fss.section('API enablement').var(this, 'runtimeConfig', {
      name: 'runtime-config',
      type: t.mapStringString,
      usage:
        'A set of key=value pairs that enable or disable built-in APIs. Supported options are: v1=true|false for the ' +
        'core API group; <group>/<version>=true|false for a specific API group and version (e.g. events.k8s.io/v1=true); ' +
        '<group>/<version>/<resource>=true|false for a single resource (api/v1/<resource> in the core group), which ' +
        'wins over its group and version; api/all=true|false controls all API versions; ' +
        'api/ga=true|false controls all API versions of the form v[0-9]+; api/beta=true|false controls all API ' +
        'versions of the form v[0-9]+beta[0-9]+; api/alpha=true|false controls all API versions of the form ' +
        'v[0-9]+alpha[0-9]+. The core group may also be written api/v1.',
    });
  }

  validate(): string[] {
    const { entries, errors } = parseRuntimeConfig(this.runtimeConfig);
    // Serving nothing at all cannot be what was meant.
    if (
      entries.length === 1 &&
      this.runtimeConfig.size === 1 &&
      entries[0]?.kind === 'all' &&
      !entries[0].on
    ) {
      errors.push('--runtime-config: invalid key with only api/all=false');
    }
    return errors;
  }

  applyTo(config: { apiEnablement?: ApiEnablementConfig }): void {
    config.apiEnablement = resolve(parseRuntimeConfig(this.runtimeConfig).entries);
  }
}
