/**
 * Keel's own version and the platform API version it serves. Clients pick behaviour from the
 * platform major/minor (kubectl warns beyond one minor of skew), so that is what /version reports.
 */
export const keelVersion = '0.1.0';

export const platformVersion = { major: '1', minor: '33', patch: '0' } as const;

export interface VersionInfo {
  readonly major: string;
  readonly minor: string;
  readonly gitVersion: string;
  readonly gitCommit: string;
  readonly gitTreeState: string;
  readonly buildDate: string;
  readonly goVersion: string;
  readonly compiler: string;
  readonly platform: string;
}

/** The gitVersion /version reports unless --version=vX.Y.Z sets another. */
const buildGitVersion = `v${platformVersion.major}.${platformVersion.minor}.${platformVersion.patch}+keel-${keelVersion}`;

/**
 * major and minor as kube's build (hack/lib/version.sh) derives them from a gitVersion: the first
 * two numbers, with `+` after the minor when a pre-release part follows the numbers, so that
 * v1.33.7-keel.1 is 1 and 33+ as a vendor's build of 1.33 reports. undefined when it does not
 * match, for the caller to fall back.
 */
function majorMinorOf(gitVersion: string): { major: string; minor: string } | undefined {
  const m = /^v([0-9]+)\.([0-9]+)(\.[0-9]+)?([-].*)?([+].*)?$/.exec(gitVersion);
  if (!m?.[1] || !m[2]) return undefined;
  return { major: m[1], minor: m[4] ? `${m[2]}+` : m[2] };
}

/**
 * The `/version` body. gitVersion is the platform version with Keel's as semver build metadata,
 * or `reported` (--version=vX.Y.Z), with major and minor derived from it.
 */
export function versionInfo(reported?: string): VersionInfo {
  const gitVersion = reported ?? buildGitVersion;
  const { major, minor } = majorMinorOf(gitVersion) ?? platformVersion;
  return {
    major,
    minor,
    gitVersion,
    gitCommit: process.env['KEEL_GIT_COMMIT'] ?? 'unknown',
    gitTreeState: 'clean',
    buildDate: process.env['KEEL_BUILD_DATE'] ?? '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/**
 * What `--version` prints and `--version=raw` dumps: Keel's own version, or `reported` in its
 * place and in the platform's, as the daemon then reports it everywhere.
 */
export function buildInfo(reported?: string): { gitVersion: string; [key: string]: string } {
  const info = versionInfo(reported);
  return { ...info, gitVersion: reported ?? `v${keelVersion}`, platformVersion: info.gitVersion };
}
