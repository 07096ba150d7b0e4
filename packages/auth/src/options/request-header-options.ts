import { flagTypes as t, type NamedFlagSets } from '@keel/flags';
import { checkNoBlankEntries } from './checks.js';

/** Front-proxy identity headers: trusted only from clients whose certificate the CA verifies. */
export interface RequestHeaderConfig {
  readonly clientCAFile: string;
  /** Empty: any certificate the CA verifies may assert an identity. */
  readonly allowedNames: readonly string[];
  readonly usernameHeaders: readonly string[];
  readonly groupHeaders: readonly string[];
  readonly extraHeaderPrefixes: readonly string[];
}

export interface RequestHeaderDefaults {
  readonly usernameHeaders?: readonly string[];
  readonly groupHeaders?: readonly string[];
  readonly extraHeaderPrefixes?: readonly string[];
}

/**
 * The --requestheader-* flags (k8s.io/apiserver RequestHeaderAuthenticationOptions). The API
 * server has no default headers; the scheduler defaults to the x-remote-* ones.
 */
export class RequestHeaderAuthenticationOptions {
  clientCAFile = '';
  allowedNames: readonly string[] = [];
  usernameHeaders: readonly string[];
  groupHeaders: readonly string[];
  extraHeaderPrefixes: readonly string[];

  constructor(defaults: RequestHeaderDefaults = {}) {
    this.usernameHeaders = defaults.usernameHeaders ?? [];
    this.groupHeaders = defaults.groupHeaders ?? [];
    this.extraHeaderPrefixes = defaults.extraHeaderPrefixes ?? [];
  }

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Authentication');
    s.var(this, 'clientCAFile', {
      name: 'requestheader-client-ca-file',
      type: t.string,
      usage:
        'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames ' +
        'in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization ' +
        'being already done for incoming requests.',
    });
    s.var(this, 'allowedNames', {
      name: 'requestheader-allowed-names',
      type: t.strings,
      usage:
        'List of client certificate common names to allow to provide usernames in headers specified by ' +
        '--requestheader-username-headers. If empty, any client certificate validated by the authorities in ' +
        '--requestheader-client-ca-file is allowed.',
    });
    s.var(this, 'usernameHeaders', {
      name: 'requestheader-username-headers',
      type: t.strings,
      usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
    });
    s.var(this, 'groupHeaders', {
      name: 'requestheader-group-headers',
      type: t.strings,
      usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
    });
    s.var(this, 'extraHeaderPrefixes', {
      name: 'requestheader-extra-headers-prefix',
      type: t.strings,
      usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
    });
  }

  validate(): string[] {
    return [
      ...checkNoBlankEntries('requestheader-username-headers', this.usernameHeaders),
      ...checkNoBlankEntries('requestheader-group-headers', this.groupHeaders),
      ...checkNoBlankEntries('requestheader-extra-headers-prefix', this.extraHeaderPrefixes),
      ...checkNoBlankEntries('requestheader-allowed-names', this.allowedNames),
    ];
  }

  toConfig(): RequestHeaderConfig {
    return {
      clientCAFile: this.clientCAFile,
      allowedNames: [...this.allowedNames],
      usernameHeaders: [...this.usernameHeaders],
      groupHeaders: [...this.groupHeaders],
      extraHeaderPrefixes: [...this.extraHeaderPrefixes],
    };
  }
}

/** --client-ca-file's help text, shared by both daemons. */
export const CLIENT_CA_FILE_USAGE =
  'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is ' +
  'authenticated with an identity corresponding to the CommonName of the client certificate.';
