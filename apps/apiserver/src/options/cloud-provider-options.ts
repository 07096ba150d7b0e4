import { flagTypes as t, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { unlessEmpty } from './rules.js';

/** The only values Keel accepts: no provider, or one running outside the API server. */
export const SUPPORTED_CLOUD_PROVIDERS = ['', 'external'] as const;
export type CloudProvider = (typeof SUPPORTED_CLOUD_PROVIDERS)[number];

export interface CloudProviderConfig {
  /** '' means none; 'external' means a separate cloud controller manager does the provider's work. */
  readonly provider: CloudProvider;
  readonly configFile: string | undefined;
  /** Source ranges of the vendor's layer-7 load balancer proxies and health checks. */
  readonly l7lbSourceCidrs: readonly string[];
  readonly containerRegistryConfigFile: string | undefined;
}

function isSupported(name: string): name is CloudProvider {
  return (SUPPORTED_CLOUD_PROVIDERS as readonly string[]).includes(name);
}

export class CloudProviderOptions implements OptionsGroup<{ cloudProvider?: CloudProviderConfig }> {
  cloudProvider = '';
  cloudConfig = '';
  cloudProviderVendorL7lbSrcCidrs: readonly string[] = ['130.211.0.0/22', '35.191.0.0/16'];
  cloudvendorContainerRegistryConfig = '';

  addFlags(fss: NamedFlagSets): void {
    const s = fss.section('Cloud provider');
    s.var(this, 'cloudConfig', {
      name: 'cloud-config',
      type: t.string,
      usage: 'The path to the cloud provider configuration file. Empty string for no configuration file.',
    });
    s.var(this, 'cloudProvider', {
      name: 'cloud-provider',
      type: t.string,
      usage:
        'The provider for cloud services. Empty string for no provider. Keel has no built-in providers, so the only ' +
        'other accepted value is "external", for a provider run outside the API server.',
    });
    s.var(this, 'cloudProviderVendorL7lbSrcCidrs', {
      name: 'cloud-provider-vendor-l7lb-src-cidrs',
      type: t.cidrs,
      usage:
        "CIDRs opened in the cloud vendor's firewall for layer-7 load-balancer traffic proxy and health checks.",
    });
    s.var(this, 'cloudvendorContainerRegistryConfig', {
      name: 'cloudvendor-container-registry-config',
      type: t.string,
      usage: 'Path to the file containing the cloud vendor container registry configuration information.',
    });
  }

  validate(): string[] {
    return isSupported(this.cloudProvider)
      ? []
      : [
          `--cloud-provider ${JSON.stringify(this.cloudProvider)} is not supported; Keel supports only "" and "external"`,
        ];
  }

  applyTo(config: { cloudProvider?: CloudProviderConfig }): void {
    if (!isSupported(this.cloudProvider))
      throw new Error('CloudProviderOptions.applyTo called with an invalid --cloud-provider');
    config.cloudProvider = {
      provider: this.cloudProvider,
      configFile: unlessEmpty(this.cloudConfig),
      l7lbSourceCidrs: this.cloudProviderVendorL7lbSrcCidrs,
      containerRegistryConfigFile: unlessEmpty(this.cloudvendorContainerRegistryConfig),
    };
  }
}
