import { describe, expect, it } from 'vitest';
import { parseCommandLine, type CommandDefinition } from './index.js';

function command(overrides: Partial<CommandDefinition> = {}): CommandDefinition {
  return {
    name: 'cmd',
    description: 'A test command.',
    build: { gitVersion: 'v1.2.3', platform: 'linux/amd64' },
    addFlags: () => undefined,
    validate: () => [],
    ...overrides,
  };
}

const printed = (argv: string[], cmd = command()) => {
  const line = parseCommandLine(cmd, argv);
  return line.action === 'version' ? line.text : `not printed: ${line.action}`;
};

describe('--version=vX.Y.Z', () => {
  it('sets the version the daemon reports and runs', () => {
    const line = parseCommandLine(command(), ['--version=v1.33.7-keel.1']);
    expect(line.action === 'run' && line.reportedVersion).toBe('v1.33.7-keel.1');
  });

  it('leaves the reported version alone when not given', () => {
    const line = parseCommandLine(command(), ['--version=false']);
    expect(line.action).toBe('run');
    expect(line.action === 'run' && 'reportedVersion' in line).toBe(false);
  });

  it('is printed by a later --version, and the last version given wins', () => {
    expect(printed(['--version=v1.33.7-keel.1', '--version'])).toBe('Keel v1.33.7-keel.1');
    expect(printed(['--version=v1.0.0', '--version=v2.0.0+meta', '--version=true'])).toBe('Keel v2.0.0+meta');
  });

  it('cancels an earlier --version, as verflag does', () => {
    const line = parseCommandLine(command(), ['--version', '--version=v1.33.7']);
    expect(line.action === 'run' && line.reportedVersion).toBe('v1.33.7');
  });

  it('puts the version into the raw build info, through the command hook when it has one', () => {
    const plain = printed(['--version=v9.8.7', '--version=raw']);
    expect(JSON.parse(plain)).toEqual({ gitVersion: 'v9.8.7', platform: 'linux/amd64' });
    const hooked = command({
      reportedBuild: (gitVersion) => ({ gitVersion, derived: `from ${gitVersion}` }),
    });
    expect(JSON.parse(printed(['--version=v9.8.7', '--version=raw'], hooked))).toEqual({
      gitVersion: 'v9.8.7',
      derived: 'from v9.8.7',
    });
    // Without a version set, the build info is the build's.
    expect(JSON.parse(printed(['--version=raw'], hooked))).toEqual({
      gitVersion: 'v1.2.3',
      platform: 'linux/amd64',
    });
  });

  it.each([
    ['vX', 'could not parse "vX" as version'],
    ['v1.2', 'illegal version string "v1.2"'],
    ['v1.2.3.4', 'illegal version string "v1.2.3.4"'],
    ['v01.2.3', 'illegal zero-prefixed version component "01" in "v01.2.3"'],
    ['v1.2.03', 'illegal zero-prefixed version component "03" in "v1.2.03"'],
    ['v1.2.3-rc.01', 'illegal zero-prefixed version component "01" in "v1.2.3-rc.01"'],
    ['v1.2.3_x', 'could not parse pre-release/metadata (_x) in version "v1.2.3_x"'],
    ['v1.2.3-', 'could not parse pre-release/metadata (-) in version "v1.2.3-"'],
    ['v1.2.3 ', 'could not parse pre-release/metadata ( ) in version "v1.2.3 "'],
    [
      'v18446744073709551616.0.0',
      'illegal non-numeric version component "18446744073709551616" in "v18446744073709551616.0.0": ' +
        'strconv.ParseUint: parsing "18446744073709551616": value out of range',
    ],
  ])('refuses %j, which is not a semantic version: %s', (value, reason) => {
    expect(parseCommandLine(command(), [`--version=${value}`, '--version'])).toEqual({
      action: 'fail',
      errors: [`invalid argument ${JSON.stringify(value)} for "--version" flag: ${reason}`],
      warnings: [],
    });
  });

  it.each([
    ['v0.0.0', 'v0.0.0'],
    ['v1.2.3-rc.0.a-b', 'v1.2.3-rc.0.a-b'],
    ['v1.2.3-0a.01a', 'v1.2.3-0a.01a'],
    ['v1.2.3+001.x', 'v1.2.3+001.x'],
    ['v1.33.0+keel-0.1.0', 'v1.33.0+keel-0.1.0'],
  ])('takes %j', (value, reported) => {
    const line = parseCommandLine(command(), [`--version=${value}`]);
    expect(line.action === 'run' && line.reportedVersion).toBe(reported);
  });

  it("still refuses any other value with ParseBool's error, as verflag does", () => {
    expect(parseCommandLine(command(), ['--version=1.2.3'])).toEqual({
      action: 'fail',
      errors: [
        'invalid argument "1.2.3" for "--version" flag: strconv.ParseBool: parsing "1.2.3": invalid syntax',
      ],
      warnings: [],
    });
  });
});
