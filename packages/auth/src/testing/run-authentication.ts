import { NamedFlagSets, parseArgs } from '@keel/flags';
import { BuiltInAuthenticationOptions, type AuthenticationConfig } from '../index.js';

/** Parses argv into a fresh BuiltInAuthenticationOptions and returns what validate and applyTo give. */
export function runAuthentication(argv: string[]) {
  const o = new BuiltInAuthenticationOptions();
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const config: { authentication?: AuthenticationConfig } = {};
  o.applyTo(config);
  if (!config.authentication) throw new Error('applyTo wrote no authentication');
  return { o, fss, parseErrors: parsed.errors, errors: o.validate(), config: config.authentication };
}

export const OIDC_ARGS = ['--oidc-issuer-url', 'https://issuer.example', '--oidc-client-id', 'keel'];
export const SIGNING_ARGS = [
  '--service-account-issuer',
  'https://keel.local',
  '--service-account-key-file',
  '/sa.pub',
];
