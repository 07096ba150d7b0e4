import { platformVersion } from '@keel/apimachinery';
import {
  BuiltInAuthenticationOptions,
  BuiltInAuthorizationOptions,
  withServiceAccountKeyFallback,
  type AuthenticationConfig,
  type AuthorizationConfig,
} from '@keel/auth';
import {
  FeatureOptions as FeatureGateOptions,
  type FeatureGates,
  type KnownFeature,
} from '@keel/featuregate';
import { assembleConfig, type NamedFlagSets, type OptionsGroup } from '@keel/flags';
import { LoggingOptions, type LoggingConfig } from '@keel/log';
import { MetricsOptions, type MetricsConfig } from '@keel/metrics';
import { SecureServingOptions, type SecureServingConfig } from '@keel/serving';
import { StoreOptions, type StoreConfig } from '@keel/storage';
import { AdmissionOptions, type AdmissionConfig } from './admission-options.js';
import { ApiEnablementOptions, type ApiEnablementConfig } from './api-enablement-options.js';
import { AuditOptions, type AuditConfig } from './audit-options.js';
import { CloudProviderOptions, type CloudProviderConfig } from './cloud-provider-options.js';
import { EgressSelectorOptions, type EgressSelectorConfig } from './egress-selector-options.js';
import { FeatureOptions, type FeaturesConfig } from './features-options.js';
import { LifecycleOptions, type LifecycleConfig } from './lifecycle-options.js';
import { LimitsOptions, type LimitsConfig } from './limits-options.js';
import { NodeAgentOptions, type NodeAgentConfig } from './nodeagent-options.js';
import { PodPolicyOptions, type PodPolicyConfig } from './pod-policy-options.js';
import { ProxyClientOptions, type ProxyClientConfig } from './proxy-client-options.js';
import { RegistryOptions, type RegistryConfig } from './registry-options.js';
import { defaultAdvertiseAddress, ServerRunOptions, type ServerRunConfig } from './server-run-options.js';
import { ServiceNetworkOptions, type ServiceNetworkConfig } from './service-network-options.js';
import { TracingOptions, type TracingConfig } from './tracing-options.js';
import { WorkersOptions, type WorkersConfig } from '../workers/options.js';

/** The API server's runtime configuration: one slice per concern, each filled by that concern's options. */
export interface ApiServerConfig {
  readonly serverRun: ServerRunConfig;
  readonly lifecycle: LifecycleConfig;
  readonly limits: LimitsConfig;
  readonly registry: RegistryConfig;
  readonly store: StoreConfig;
  readonly secureServing: SecureServingConfig;
  readonly audit: AuditConfig;
  readonly features: FeaturesConfig;
  readonly featureGates: FeatureGates<KnownFeature>;
  readonly authentication: AuthenticationConfig;
  readonly authorization: AuthorizationConfig;
  readonly cloudProvider: CloudProviderConfig;
  readonly apiEnablement: ApiEnablementConfig;
  readonly egressSelector: EgressSelectorConfig;
  readonly admission: AdmissionConfig;
  readonly metrics: MetricsConfig;
  readonly logging: LoggingConfig;
  readonly tracing: TracingConfig;
  readonly serviceNetwork: ServiceNetworkConfig;
  readonly podPolicy: PodPolicyConfig;
  readonly nodeAgent: NodeAgentConfig;
  readonly proxyClient: ProxyClientConfig;
  readonly workers: WorkersConfig;
  /** The address advertised to cluster members: the flag, else derived from the bind address. */
  readonly advertiseAddress: string | undefined;
}

const SLICES = [
  'serverRun',
  'lifecycle',
  'limits',
  'registry',
  'store',
  'secureServing',
  'audit',
  'features',
  'featureGates',
  'authentication',
  'authorization',
  'cloudProvider',
  'apiEnablement',
  'egressSelector',
  'admission',
  'metrics',
  'logging',
  'tracing',
  'serviceNetwork',
  'podPolicy',
  'nodeAgent',
  'proxyClient',
  'workers',
] as const satisfies readonly (keyof ApiServerConfig)[];

/** Sections in the order kube-apiserver prints them. */
const SECTIONS = [
  'Generic',
  'Store',
  'Secure serving',
  'Auditing',
  'Features',
  'Authentication',
  'Authorization',
  'Cloud provider',
  'API enablement',
  'Egress selector',
  'Admission',
  'Metrics',
  'Logs',
  'Traces',
  'Misc',
];

/** Every option of keel-apiserver, one object per concern: this class is the table of contents. */
export class ApiServerOptions {
  readonly serverRun = new ServerRunOptions();
  readonly lifecycle = new LifecycleOptions();
  readonly features = new FeatureOptions();
  readonly limits = new LimitsOptions(this.features);
  readonly registry = new RegistryOptions();
  readonly store = new StoreOptions();
  readonly secureServing = new SecureServingOptions({
    securePort: 6443,
    certDir: '/var/run/platform',
    allowZeroPort: false,
  });
  readonly audit = new AuditOptions();
  readonly featureGates = new FeatureGateOptions();
  readonly authentication = new BuiltInAuthenticationOptions();
  readonly authorization = new BuiltInAuthorizationOptions();
  readonly cloudProvider = new CloudProviderOptions();
  readonly apiEnablement = new ApiEnablementOptions();
  readonly egressSelector = new EgressSelectorOptions();
  readonly admission = new AdmissionOptions();
  readonly metrics = new MetricsOptions({ platformVersion });
  readonly logging = new LoggingOptions();
  readonly tracing = new TracingOptions();
  readonly serviceNetwork = new ServiceNetworkOptions();
  readonly podPolicy = new PodPolicyOptions();
  readonly nodeAgent = new NodeAgentOptions();
  readonly proxyClient = new ProxyClientOptions();
  readonly workers = new WorkersOptions({
    redisStore: () => this.store.storeServers.length > 0,
    inMemoryCertificate: () =>
      this.secureServing.certDir === '' &&
      (this.secureServing.tlsCertFile === '' || this.secureServing.tlsPrivateKeyFile === ''),
  });

  private groups(): OptionsGroup<Partial<ApiServerConfig>>[] {
    return [
      this.serverRun,
      this.lifecycle,
      this.limits,
      this.registry,
      this.store,
      this.secureServing,
      this.audit,
      this.features,
      this.featureGates,
      this.authentication,
      this.authorization,
      this.cloudProvider,
      this.apiEnablement,
      this.egressSelector,
      this.admission,
      this.metrics,
      this.logging,
      this.tracing,
      this.serviceNetwork,
      this.podPolicy,
      this.nodeAgent,
      this.proxyClient,
      this.workers,
    ];
  }

  addFlags(fss: NamedFlagSets): void {
    for (const title of SECTIONS) fss.section(title);
    for (const g of this.groups()) g.addFlags(fss);
  }

  validate(): string[] {
    return this.groups().flatMap((g) => g.validate());
  }

  warnings(): string[] {
    return [...this.secureServing.warnings(), ...this.featureGates.warnings()];
  }

  /** Applies every concern and fills the values the API server derives from several of them. */
  complete(): ApiServerConfig {
    const c = assembleConfig<Omit<ApiServerConfig, 'advertiseAddress'>>(this.groups(), SLICES);
    return {
      ...c,
      // Service-account tokens are verified with the serving key when no key file is given, as kube does.
      authentication: withServiceAccountKeyFallback(c.authentication, c.secureServing.keyFile),
      advertiseAddress: c.serverRun.advertiseAddress ?? defaultAdvertiseAddress(c.secureServing.bindAddress),
    };
  }
}
