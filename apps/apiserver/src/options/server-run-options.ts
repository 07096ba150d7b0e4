import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { checkCorsOrigins, checkHstsDirectives, hstsHeader } from './http-header-rules.js';
import { unlessEmpty } from './rules.js';

/** How the HTTP front end presents itself: advertised address, CORS, HSTS, GOAWAY. */
export interface ServerRunConfig {
  /** The address advertised to cluster members; undefined means derive it with `defaultAdvertiseAddress`. */
  readonly advertiseAddress: string | undefined;
  /** Host name for externalized URLs; undefined means the advertise address (then the host name). */
  readonly externalHostname: string | undefined;
  /** Compiled allowed origins; empty means CORS is off. */
  readonly corsAllowedOrigins: readonly RegExp[];
  /** The Strict-Transport-Security header value, or undefined to send none. */
  readonly strictTransportSecurity: string | undefined;
  /**
   * Fraction of requests whose connection is closed after the response: a GOAWAY on HTTP/2,
   * `Connection: close` on HTTP/1.1; 0 is off.
   */
  readonly goawayChance: number;
}

export const MAX_GOAWAY_CHANCE = 0.02;

export class ServerRunOptions implements OptionsGroup<{ serverRun?: ServerRunConfig }> {
  advertiseAddress = '';
  externalHostname = '';
  corsAllowedOrigins: readonly string[] = [];
  strictTransportSecurityDirectives: readonly string[] = [];
  goawayChance = 0;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Generic');
    s.var(this, 'advertiseAddress', {
      name: 'advertise-address',
      type: t.ip,
      usage:
        'The IP address on which to advertise the apiserver to members of the cluster. This address must be reachable ' +
        'by the rest of the cluster. If blank, the --bind-address will be used. If --bind-address is unspecified, ' +
        "the host's default interface will be used.",
    });
    s.var(this, 'externalHostname', {
      name: 'external-hostname',
      type: t.string,
      usage:
        'The hostname to use when generating externalized URLs for this server (e.g. API docs or OpenID discovery). ' +
        'If blank, the advertise address is used, then the host name.',
    });
    s.var(this, 'corsAllowedOrigins', {
      name: 'cors-allowed-origins',
      type: t.strings,
      usage:
        'List of allowed origins for CORS, comma separated. An allowed origin can be a regular expression to support ' +
        'subdomain matching. If this list is empty CORS will not be enabled. Each expression must match the entire ' +
        "hostname by anchoring to the start with '^' or including the '//' prefix, and by anchoring to the end with " +
        "'$' or including the ':' port separator suffix. Examples of valid expressions are '//example\\.com(:|$)' " +
        "and '^https://example\\.com(:|$)'.",
    });
    s.var(this, 'strictTransportSecurityDirectives', {
      name: 'strict-transport-security-directives',
      type: t.strings,
      usage:
        'List of directives for HSTS, comma separated. If this list is empty, then HSTS directives will not be added. ' +
        "Example: 'max-age=31536000,includeSubDomains,preload'.",
    });
    s.var(this, 'goawayChance', {
      name: 'goaway-chance',
      type: t.float,
      usage:
        'To prevent HTTP/2 clients from getting stuck on a single apiserver, randomly close a connection (GOAWAY). ' +
        "The client's other in-flight requests won't be affected, and the client will reconnect, likely landing on a " +
        'different apiserver after going through the load balancer again. This argument sets the fraction of requests ' +
        "that will be sent a GOAWAY. Clusters with single apiservers, or which don't use a load balancer, should NOT " +
        'enable this. Min is 0 (off), Max is .02 (1/50 requests); .001 (1/1000) is a recommended starting point.',
    });
  }

  validate(): string[] {
    const errors: string[] = [];
    // Written so that NaN fails too.
    if (!(this.goawayChance >= 0 && this.goawayChance <= MAX_GOAWAY_CHANCE)) {
      errors.push(`--goaway-chance should be between 0 and ${MAX_GOAWAY_CHANCE}, inclusive`);
    }
    errors.push(...checkCorsOrigins('cors-allowed-origins', this.corsAllowedOrigins));
    errors.push(
      ...checkHstsDirectives('strict-transport-security-directives', this.strictTransportSecurityDirectives),
    );
    return errors;
  }

  applyTo(config: { serverRun?: ServerRunConfig }): void {
    config.serverRun = {
      advertiseAddress: unlessEmpty(this.advertiseAddress),
      externalHostname: unlessEmpty(this.externalHostname),
      corsAllowedOrigins: this.corsAllowedOrigins.map((p) => new RegExp(p)),
      strictTransportSecurity: hstsHeader(this.strictTransportSecurityDirectives),
      goawayChance: this.goawayChance,
    };
  }
}

function isUnspecified(ip: string): boolean {
  return ip === '' || ip === '0.0.0.0' || ip === '::';
}

/**
 * kube-apiserver's DefaultAdvertiseAddress: a blank --advertise-address takes a specific
 * --bind-address, else the first non-internal address of the host (IPv4 preferred, as Go's
 * ChooseHostInterface does). Lives here because the bind address belongs to the serving options.
 */
export function defaultAdvertiseAddress(
  bindAddress: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string | undefined {
  if (!isUnspecified(bindAddress)) return bindAddress;
  const external = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((i) => !i.internal);
  return (external.find((i) => i.family === 'IPv4') ?? external[0])?.address;
}
