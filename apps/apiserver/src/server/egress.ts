import { EgressSelector, loadEgressConfig, startLocalForwarder } from '@keel/egress';
import type { Logger } from '@keel/log';
import { startTracing, type TracingConfig, type TracingIdentity } from '@keel/tracing';

/**
 * --egress-selector-config-file: which of the server's outgoing connections go through a proxy.
 * As upstream: `controlplane` carries the authentication, authorization, audit and admission
 * webhooks named by URL, the OIDC issuer and the tracing exporter; `etcd` carries the store
 * (Redis); `cluster` carries the admission webhooks named by a Service (upstream also sends
 * nodeagent and Service proxy connections there, which Keel does not make).
 */
export function buildEgressSelector(configFile: string | undefined): EgressSelector {
  return new EgressSelector(configFile ? loadEgressConfig(configFile) : undefined);
}

export function logEgress(egress: EgressSelector, logger: Logger): void {
  for (const name of egress.proxied) logger.info('Dialing through the egress proxy', { network: name });
}

/**
 * Starts tracing; with a controlplane proxy, the exporter (which takes no dialer) connects to a
 * loopback forwarder that tunnels each connection through the proxy.
 */
export async function startTracingThroughEgress(
  config: TracingConfig,
  id: TracingIdentity,
  egress: EgressSelector,
): Promise<() => Promise<void>> {
  const dial = egress.lookup('controlplane');
  if (!dial) return startTracing(config, id);
  const m = /^\[?(.*?)\]?:(\d+)$/.exec(config.endpoint);
  const forwarder = await startLocalForwarder(dial, m?.[1] ?? config.endpoint, Number(m?.[2] ?? 4317));
  const stop = await startTracing({ ...config, endpoint: forwarder.address }, id);
  return async () => {
    await stop();
    await forwarder.close();
  };
}
