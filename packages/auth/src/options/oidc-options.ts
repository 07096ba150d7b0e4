import { checkEachOneOf, flagTypes as t, type NamedFlagSets } from '@keel/flags';
import { SERVICE_ACCOUNT_ALGORITHMS } from '../authn/jwt.js';
import { parseUrl } from './checks.js';

/** The JOSE algorithms the OIDC authenticator can verify (RFC 7518 section 3.1, asymmetric only). */
export const OIDC_SIGNING_ALGS = SERVICE_ACCOUNT_ALGORITHMS;

/** An OIDC JWT authenticator, present only when both the issuer and the client ID are set. */
export interface OIDCConfig {
  readonly issuerURL: string;
  /** The audience every token must carry. */
  readonly clientID: string;
  /** '' means the host's root CAs. */
  readonly caFile: string;
  readonly usernameClaim: string;
  /** Resolved: `<issuer>#` unless given or the claim is `email`; `-` given means no prefix (''). */
  readonly usernamePrefix: string;
  readonly groupsClaim: string;
  readonly groupsPrefix: string;
  readonly requiredClaims: ReadonlyMap<string, string>;
  readonly signingAlgs: readonly string[];
}

const OTHER_OIDC_FLAGS = [
  'oidc-ca-file',
  'oidc-username-claim',
  'oidc-username-prefix',
  'oidc-groups-claim',
  'oidc-groups-prefix',
  'oidc-required-claim',
  'oidc-signing-algs',
];

/** The --oidc-* flags of the API server (kube-apiserver OIDCAuthenticationOptions). */
export class OIDCAuthenticationOptions {
  issuerURL = '';
  clientID = '';
  caFile = '';
  usernameClaim = 'sub';
  usernamePrefix = '';
  groupsClaim = '';
  groupsPrefix = '';
  /** `key=value` per occurrence; a value may itself hold commas, so occurrences are not split. */
  requiredClaims: readonly string[] = [];
  signingAlgs: readonly string[] = ['RS256'];

  // Like the real daemon, any oidc-* flag typed without an issuer is an error, so remember the flags.
  private fss: NamedFlagSets | undefined;

  addFlags(fss: NamedFlagSets): void {
    this.fss = fss;
    const s = fss.section('Authentication');
    s.var(this, 'issuerURL', {
      name: 'oidc-issuer-url',
      type: t.string,
      usage:
        'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the ' +
        'OIDC JSON Web Token (JWT).',
    });
    s.var(this, 'clientID', {
      name: 'oidc-client-id',
      type: t.string,
      usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.',
    });
    s.var(this, 'caFile', {
      name: 'oidc-ca-file',
      type: t.string,
      usage:
        "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, " +
        "otherwise the host's root CA set will be used.",
    });
    s.var(this, 'usernameClaim', {
      name: 'oidc-username-claim',
      type: t.string,
      usage:
        "The OpenID claim to use as the user name. Note that claims other than the default ('sub') are not " +
        'guaranteed to be unique and immutable.',
    });
    s.var(this, 'usernamePrefix', {
      name: 'oidc-username-prefix',
      type: t.string,
      usage:
        "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' " +
        "are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.",
    });
    s.var(this, 'groupsClaim', {
      name: 'oidc-groups-claim',
      type: t.string,
      usage:
        'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is ' +
        'expected to be a string or array of strings.',
    });
    s.var(this, 'groupsPrefix', {
      name: 'oidc-groups-prefix',
      type: t.string,
      usage:
        'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.',
    });
    s.var(this, 'requiredClaims', {
      name: 'oidc-required-claim',
      type: t.stringArray,
      usage:
        'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present ' +
        'in the ID Token with a matching value. Repeat this flag to specify multiple claims.',
    });
    s.var(this, 'signingAlgs', {
      name: 'oidc-signing-algs',
      type: t.strings,
      usage:
        "Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values " +
        `are: ${OIDC_SIGNING_ALGS.join(', ')}. Values are defined by RFC 7518 https://tools.ietf.org/html/rfc7518#section-3.1.`,
    });
  }

  validate(): string[] {
    const errors: string[] = [];
    if (this.issuerURL !== '' && this.clientID === '') {
      errors.push('--oidc-client-id must be specified when --oidc-issuer-url is set');
    }
    if (this.clientID !== '' && this.issuerURL === '') {
      errors.push('--oidc-issuer-url must be specified when --oidc-client-id is set');
    }
    if (
      this.issuerURL === '' &&
      this.clientID === '' &&
      OTHER_OIDC_FLAGS.some((f) => this.fss?.changed(f) === true)
    ) {
      errors.push(
        '--oidc-issuer-url and --oidc-client-id must be specified together when any oidc-* flags are set',
      );
    }
    if (this.issuerURL !== '' && parseUrl(this.issuerURL)?.protocol !== 'https:') {
      errors.push(`--oidc-issuer-url ${JSON.stringify(this.issuerURL)} must be an https URL`);
    }
    errors.push(...checkEachOneOf('oidc-signing-algs', this.signingAlgs, OIDC_SIGNING_ALGS));
    for (const claim of this.requiredClaims) {
      if (claim.indexOf('=') < 1)
        errors.push(`--oidc-required-claim ${JSON.stringify(claim)} must be formatted as key=value`);
    }
    return errors;
  }

  /** undefined unless both the issuer and the client ID are set (OIDC is off otherwise). */
  toConfig(): OIDCConfig | undefined {
    if (this.issuerURL === '' || this.clientID === '') return undefined;
    let usernamePrefix = this.usernamePrefix;
    if (usernamePrefix === '' && this.usernameClaim !== 'email') usernamePrefix = `${this.issuerURL}#`;
    if (usernamePrefix === '-') usernamePrefix = '';
    const requiredClaims = new Map<string, string>();
    for (const claim of this.requiredClaims) {
      const eq = claim.indexOf('=');
      if (eq > 0) requiredClaims.set(claim.slice(0, eq), claim.slice(eq + 1));
    }
    return {
      issuerURL: this.issuerURL,
      clientID: this.clientID,
      caFile: this.caFile,
      usernameClaim: this.usernameClaim,
      usernamePrefix,
      groupsClaim: this.groupsClaim,
      groupsPrefix: this.groupsPrefix,
      requiredClaims,
      // The authenticator itself falls back to RS256, the algorithm every OpenID provider must offer.
      signingAlgs: this.signingAlgs.length > 0 ? [...this.signingAlgs] : ['RS256'],
    };
  }
}
