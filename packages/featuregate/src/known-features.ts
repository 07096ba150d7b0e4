/** A gate's maturity; the --help text prints it the way the real daemons do. */
export type PreRelease = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  readonly default: boolean;
  readonly preRelease: PreRelease;
  /** GA (or dead) gates that can no longer be flipped; setting the other value is an error. */
  readonly lockToDefault?: boolean;
}

/** Gates that switch every alpha (beta) gate the user did not name, as in the real daemons. */
export const ALL_ALPHA = 'AllAlpha';
export const ALL_BETA = 'AllBeta';

/**
 * The gates Keel knows, with the stage and default each has in platform release 1.34. Both daemons
 * share one registry, as the real ones do (each binary registers every gate), so a gate meant for
 * one daemon is accepted, and ignored, by the other. Only gates whose behaviour Keel has, or
 * could have, are listed: naming any other real gate is an error, exactly like a misspelling.
 */
export const keelFeatures = {
  AllAlpha: { default: false, preRelease: 'ALPHA' },
  AllBeta: { default: false, preRelease: 'BETA' },

  // API server
  APIResponseCompression: { default: true, preRelease: 'BETA' },
  APIServerIdentity: { default: true, preRelease: 'BETA' },
  APIServerTracing: { default: true, preRelease: 'GA', lockToDefault: true },
  AllowParsingUserUIDFromCertAuth: { default: true, preRelease: 'BETA' },
  AnonymousAuthConfigurableEndpoints: { default: true, preRelease: 'GA', lockToDefault: true },
  CBORServingAndStorage: { default: false, preRelease: 'ALPHA' },
  ConsistentListFromCache: { default: true, preRelease: 'GA', lockToDefault: true },
  RemoteRequestHeaderUID: { default: true, preRelease: 'BETA' },
  RetryGenerateName: { default: true, preRelease: 'GA', lockToDefault: true },
  StorageVersionHash: { default: true, preRelease: 'BETA' },
  UnauthenticatedHTTP2DOSMitigation: { default: true, preRelease: 'BETA' },
  WatchCacheInitializationPostStartHook: { default: false, preRelease: 'BETA' },
  WatchList: { default: true, preRelease: 'BETA' },

  // Scheduler
  SchedulerAsyncPreemption: { default: true, preRelease: 'BETA' },
  SchedulerPopFromBackoffQ: { default: true, preRelease: 'BETA' },
  SchedulerQueueingHints: { default: true, preRelease: 'GA', lockToDefault: true },
} as const satisfies Readonly<Record<string, FeatureSpec>>;

export type KnownFeature = keyof typeof keelFeatures;
