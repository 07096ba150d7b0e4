import {
  checkPort,
  flagTypes as t,
  type NamedFlagSets,
  type OptionsGroup,
  type PortRange,
} from '@keel/flags';
import { formatIpNet, indexedIp, ipNetSize, parseIpNet, type IpNet } from './ip-range.js';

export const ENDPOINT_RECONCILER_TYPES = ['master-count', 'lease', 'none'] as const;
export type EndpointReconcilerType = (typeof ENDPOINT_RECONCILER_TYPES)[number];

/** kube-apiserver's fallback when --service-cluster-ip-range is not given. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';

/** Service addressing and the platform's own `default/kubernetes`-style master service. */
export interface ServiceNetworkConfig {
  /** One CIDR, or two of different IP families; the primary first, host bits cleared. */
  readonly serviceClusterIPRanges: readonly string[];
  /** The master service's cluster IP: the first address of the primary range. */
  readonly apiServerServiceIP: string;
  readonly serviceNodePortRange: PortRange;
  /** Non-zero makes the master service a NodePort service on this port. */
  readonly platformServiceNodePort: number;
  readonly endpointReconcilerType: EndpointReconcilerType;
  readonly masterServiceNamespace: string;
  /** Proxy aggregated API requests to endpoint IPs rather than the service's cluster IP. */
  readonly enableAggregatorRouting: boolean;
}

const FLAG = 'service-cluster-ip-range';

/** Parses the ranges, reporting every problem; returns the parsed nets only when there were none. */
function parseServiceRanges(text: string): { nets: IpNet[]; errors: string[] } {
  const entries = (text === '' ? DEFAULT_SERVICE_CLUSTER_IP_RANGE : text).split(',').map((s) => s.trim());
  const errors: string[] = [];
  if (entries.length > 2) errors.push(`--${FLAG} must not contain more than two entries`);
  const nets: IpNet[] = [];
  for (const entry of entries) {
    try {
      nets.push(parseIpNet(entry));
    } catch (err) {
      errors.push(`--${FLAG} ${JSON.stringify(entry)} is not a valid CIDR: ${(err as Error).message}`);
    }
  }
  const [primary, secondary] = nets;
  if (errors.length === 0 && primary && secondary && primary.family === secondary.family) {
    errors.push(`--${FLAG}[0] and --${FLAG}[1] must be of different IP family`);
  }
  if (primary && ipNetSize(primary) < 2n) {
    errors.push(
      `--${FLAG} ${formatIpNet(primary)} has no room for the master service IP; use a larger range`,
    );
  }
  return { nets: errors.length === 0 ? nets : [], errors };
}

function formatPortRange(r: PortRange): string {
  return `${r.base}-${r.base + r.size - 1}`;
}

export class ServiceNetworkOptions implements OptionsGroup<{ serviceNetwork?: ServiceNetworkConfig }> {
  serviceClusterIPRange = '';
  serviceNodePortRange: PortRange = { base: 30000, size: 2768 };
  platformServiceNodePort = 0;
  endpointReconcilerType: EndpointReconcilerType = 'lease';
  masterServiceNamespace = 'default';
  enableAggregatorRouting = false;

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Misc');
    s.var(this, 'enableAggregatorRouting', {
      name: 'enable-aggregator-routing',
      type: t.bool,
      usage: 'Turns on aggregator routing requests to endpoints IP rather than cluster IP.',
    });
    s.var(this, 'endpointReconcilerType', {
      name: 'endpoint-reconciler-type',
      type: t.enumOf(ENDPOINT_RECONCILER_TYPES),
      usage:
        'Use an endpoint reconciler (master-count, lease, none). master-count is deprecated, and will be removed in a ' +
        'future version.',
    });
    s.var(this, 'masterServiceNamespace', {
      name: 'master-service-namespace',
      type: t.string,
      usage:
        'DEPRECATED: the namespace from which the platform master services should be injected into pods.',
      deprecated: 'This flag will be removed in a future version.',
    });
    s.var(this, 'platformServiceNodePort', {
      name: 'platform-service-node-port',
      type: t.int,
      usage:
        'If non-zero, the platform master service (which apiserver creates/maintains) will be of type NodePort, using ' +
        'this as the value of the port. If zero, the platform master service will be of type ClusterIP.',
    });
    s.var(this, 'serviceClusterIPRange', {
      name: FLAG,
      type: t.string,
      usage:
        'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges ' +
        `assigned to nodes or pods. Max of two dual-stack CIDRs is allowed. If blank, ${DEFAULT_SERVICE_CLUSTER_IP_RANGE} is used.`,
    });
    s.var(this, 'serviceNodePortRange', {
      name: 'service-node-port-range',
      type: t.portRange,
      usage:
        'A port range to reserve for services with NodePort visibility. This must not overlap with the ephemeral port ' +
        "range on nodes. Example: '30000-32767'. Inclusive at both ends of the range.",
    });
  }

  validate(): string[] {
    const errors = parseServiceRanges(this.serviceClusterIPRange).errors;
    const port = this.platformServiceNodePort;
    const portErrors = checkPort('platform-service-node-port', port, { allowZero: true });
    errors.push(...portErrors);
    const range = this.serviceNodePortRange;
    if (portErrors.length === 0 && port !== 0 && (port < range.base || port >= range.base + range.size)) {
      errors.push(
        `--platform-service-node-port ${port} is not within --service-node-port-range ${formatPortRange(range)}`,
      );
    }
    return errors;
  }

  applyTo(config: { serviceNetwork?: ServiceNetworkConfig }): void {
    const { nets } = parseServiceRanges(this.serviceClusterIPRange);
    const primary = nets[0];
    if (!primary)
      throw new Error('ServiceNetworkOptions.applyTo called with invalid --service-cluster-ip-range');
    config.serviceNetwork = {
      serviceClusterIPRanges: nets.map(formatIpNet),
      apiServerServiceIP: indexedIp(primary, 1),
      serviceNodePortRange: this.serviceNodePortRange,
      platformServiceNodePort: this.platformServiceNodePort,
      endpointReconcilerType: this.endpointReconcilerType,
      masterServiceNamespace: this.masterServiceNamespace,
      enableAggregatorRouting: this.enableAggregatorRouting,
    };
  }
}
