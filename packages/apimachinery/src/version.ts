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

/** The `/version` body; gitVersion is the platform version with Keel's as semver build metadata. */
export function versionInfo(): VersionInfo {
  return {
    major: platformVersion.major,
    minor: platformVersion.minor,
    gitVersion: `v${platformVersion.major}.${platformVersion.minor}.${platformVersion.patch}+keel-${keelVersion}`,
    gitCommit: process.env['KEEL_GIT_COMMIT'] ?? 'unknown',
    gitTreeState: 'clean',
    buildDate: process.env['KEEL_BUILD_DATE'] ?? '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/** What `--version` prints and `--version=raw` dumps. */
export function buildInfo(): { gitVersion: string; [key: string]: string } {
  const info = versionInfo();
  return { ...info, gitVersion: `v${keelVersion}`, platformVersion: info.gitVersion };
}
