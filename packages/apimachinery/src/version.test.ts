import { describe, expect, it } from 'vitest';
import { buildInfo, keelVersion, platformVersion, versionInfo } from './version.js';

describe('versionInfo', () => {
  it("is the platform version with Keel's as build metadata by default", () => {
    const info = versionInfo();
    expect([info.major, info.minor]).toEqual([platformVersion.major, platformVersion.minor]);
    expect(info.gitVersion).toBe(
      `v${platformVersion.major}.${platformVersion.minor}.${platformVersion.patch}+keel-${keelVersion}`,
    );
  });

  it.each([
    ['v1.33.7', '1', '33'],
    ['v1.33.7+keel-0.1.0', '1', '33'],
    ['v1.33.7-keel.1', '1', '33+'],
    ['v1.34.0-rc.1+abc-def', '1', '34+'],
    ['v2.0.0', '2', '0'],
  ])('derives major and minor from a reported %s as kube builds do', (gitVersion, major, minor) => {
    expect(versionInfo(gitVersion)).toMatchObject({ gitVersion, major, minor });
  });
});

describe('buildInfo', () => {
  it("names Keel's version, and the platform's", () => {
    const info = buildInfo();
    expect(info.gitVersion).toBe(`v${keelVersion}`);
    expect(info['platformVersion']).toBe(versionInfo().gitVersion);
  });

  it('names the reported version in both places', () => {
    expect(buildInfo('v1.33.7-keel.1')).toMatchObject({
      gitVersion: 'v1.33.7-keel.1',
      platformVersion: 'v1.33.7-keel.1',
      major: '1',
      minor: '33+',
    });
  });
});
