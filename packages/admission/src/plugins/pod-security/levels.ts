/**
 * Pod Security levels and versions, and a namespace's policy from its
 * `pod-security.kubernetes.io/*` labels (kube's pod-security-admission api package).
 */
import { invalidValue, path, type FieldError } from '@keel/apimachinery';

export const LEVELS = ['privileged', 'baseline', 'restricted'] as const;
export type Level = (typeof LEVELS)[number];

export const MODES = ['enforce', 'audit', 'warn'] as const;
export type Mode = (typeof MODES)[number];

/** `latest`, or a `v1.N` with N its minor. */
export type PolicyVersion = 'latest' | { readonly minor: number };

export interface LevelVersion {
  readonly level: Level;
  readonly version: PolicyVersion;
}

export type Policy = Readonly<Record<Mode, LevelVersion>>;

export const LATEST: PolicyVersion = 'latest';

export const levelLabel = (mode: Mode) => `pod-security.kubernetes.io/${mode}`;
export const versionLabel = (mode: Mode) => `pod-security.kubernetes.io/${mode}-version`;

export const LEVEL_ERROR = `must be one of ${LEVELS.join(', ')}`;
export const VERSION_ERROR = 'must be "latest" or "v1.x"';

export function parseLevel(value: string): Level | undefined {
  return (LEVELS as readonly string[]).includes(value) ? (value as Level) : undefined;
}

const VERSION_RE = /^v1\.(0|[1-9][0-9]*)$/;

export function parseVersion(value: string): PolicyVersion | undefined {
  if (value === 'latest') return LATEST;
  const m = VERSION_RE.exec(value);
  if (!m) return undefined;
  const minor = Number(m[1]);
  return Number.isSafeInteger(minor) ? { minor } : undefined;
}

export function versionString(v: PolicyVersion): string {
  return v === 'latest' ? 'latest' : `v1.${v.minor}`;
}

/** `restricted:latest`, as messages and audit annotations print a level and version. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && versionString(a.version) === versionString(b.version);
}

/** -1, 0 or 1 as `a` is less strict than, as strict as or stricter than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}

/** Every mode at privileged: nothing to evaluate. */
export function fullyPrivileged(p: Policy): boolean {
  return MODES.every((m) => p[m].level === 'privileged');
}

/**
 * The policy a namespace's labels ask for, over `defaults` for the labels it lacks. A bad label
 * is an error and, as in kube, evaluates as restricted (enforce) or privileged (audit, warn: they
 * fail open) at the latest version.
 */
export function policyFromLabels(
  labels: Readonly<Record<string, string>>,
  defaults: Policy,
): { policy: Policy; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const labelsPath = path('metadata', 'labels');
  const out: Record<Mode, LevelVersion> = { ...defaults };
  for (const mode of MODES) {
    let { level, version } = out[mode];
    const rawLevel = labels[levelLabel(mode)];
    if (rawLevel !== undefined) {
      const parsed = parseLevel(rawLevel);
      if (parsed === undefined) {
        errors.push(invalidValue(labelsPath.key(levelLabel(mode)), rawLevel, LEVEL_ERROR));
        level = mode === 'enforce' ? 'restricted' : 'privileged';
      } else level = parsed;
    }
    const rawVersion = labels[versionLabel(mode)];
    if (rawVersion !== undefined) {
      const parsed = parseVersion(rawVersion);
      if (parsed === undefined)
        errors.push(invalidValue(labelsPath.key(versionLabel(mode)), rawVersion, VERSION_ERROR));
      version = parsed ?? LATEST;
    }
    out[mode] = { level, version };
  }
  return { policy: out, errors };
}
