import {
  Duration,
  checkEachOneOf,
  checkPaired,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
  checkDurationPositive,
  checkNoDuplicates,
} from '@keel/flags';
import { unlessEmpty } from './rules.js';

export const NODE_ADDRESS_TYPES = [
  'Hostname',
  'InternalDNS',
  'InternalIP',
  'ExternalDNS',
  'ExternalIP',
] as const;
export type NodeAddressType = (typeof NODE_ADDRESS_TYPES)[number];

/** How the API server reaches node agents (logs, exec, port-forward, proxy). */
export interface NodeAgentConfig {
  readonly certificateAuthority: string | undefined;
  /** Client certificate and key, both or neither. */
  readonly clientCertificate: { readonly certFile: string; readonly keyFile: string } | undefined;
  /** Which node address to dial, first match wins. */
  readonly preferredAddressTypes: readonly NodeAddressType[];
  readonly timeout: Duration;
}

function isAddressType(v: string): v is NodeAddressType {
  return (NODE_ADDRESS_TYPES as readonly string[]).includes(v);
}

export class NodeAgentOptions implements OptionsGroup<{ nodeAgent?: NodeAgentConfig }> {
  nodeagentCertificateAuthority = '';
  nodeagentClientCertificate = '';
  nodeagentClientKey = '';
  nodeagentPreferredAddressTypes: readonly string[] = [...NODE_ADDRESS_TYPES];
  nodeagentTimeout = Duration.parse('5s');

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Misc');
    s.var(this, 'nodeagentCertificateAuthority', {
      name: 'nodeagent-certificate-authority',
      type: t.string,
      usage: 'Path to a cert file for the certificate authority that signs node agent serving certificates.',
    });
    s.var(this, 'nodeagentClientCertificate', {
      name: 'nodeagent-client-certificate',
      type: t.string,
      usage: 'Path to a client cert file for TLS to node agents.',
    });
    s.var(this, 'nodeagentClientKey', {
      name: 'nodeagent-client-key',
      type: t.string,
      usage: 'Path to a client key file for TLS to node agents.',
    });
    s.var(this, 'nodeagentPreferredAddressTypes', {
      name: 'nodeagent-preferred-address-types',
      type: t.strings,
      usage: 'List of the preferred NodeAddressTypes to use for node agent connections.',
    });
    s.var(this, 'nodeagentTimeout', {
      name: 'nodeagent-timeout',
      type: t.duration,
      usage: 'Timeout for node agent operations.',
    });
  }

  validate(): string[] {
    const types = this.nodeagentPreferredAddressTypes;
    return [
      ...checkPaired(
        ['nodeagent-client-certificate', this.nodeagentClientCertificate],
        ['nodeagent-client-key', this.nodeagentClientKey],
      ),
      ...(types.length === 0
        ? ['--nodeagent-preferred-address-types must list at least one address type']
        : []),
      ...checkEachOneOf('nodeagent-preferred-address-types', types, NODE_ADDRESS_TYPES),
      ...checkNoDuplicates('nodeagent-preferred-address-types', types),
      ...checkDurationPositive('nodeagent-timeout', this.nodeagentTimeout),
    ];
  }

  applyTo(config: { nodeAgent?: NodeAgentConfig }): void {
    const certFile = this.nodeagentClientCertificate;
    const keyFile = this.nodeagentClientKey;
    config.nodeAgent = {
      certificateAuthority: unlessEmpty(this.nodeagentCertificateAuthority),
      clientCertificate: certFile !== '' && keyFile !== '' ? { certFile, keyFile } : undefined,
      preferredAddressTypes: this.nodeagentPreferredAddressTypes.filter(isAddressType),
      timeout: this.nodeagentTimeout,
    };
  }
}
