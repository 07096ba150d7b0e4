/** A gate's maturity; the --help text prints it the way the real daemons do. */
export type PreRelease = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

/**
 * What a gate that no Keel code reads means in Keel. Each reason is a predicate that follows the
 * word "Keel" in errors and help ("Keel serves and stores no CBOR").
 */
export type KeelStatus =
  /**
   * Keel implements only the gate's `default`: setting the other value stops start-up with this
   * reason (so the gate's default is what Keel does, which may differ from the real daemons').
   */
  | { readonly fixed: string }
  /** Accepted for command-line compatibility; whatever its value, there is nothing in Keel it changes. */
  | { readonly meaningless: string };

export interface FeatureSpec {
  readonly default: boolean;
  readonly preRelease: PreRelease;
  /** GA (or dead) gates that can no longer be flipped; setting the other value is an error. */
  readonly lockToDefault?: boolean;
  /** Absent: code reads the gate, so its value acts. */
  readonly keel?: KeelStatus;
}

/** Gates that switch every alpha (beta) gate the user did not name, as in the real daemons. */
export const ALL_ALPHA = 'AllAlpha';
export const ALL_BETA = 'AllBeta';

/**
 * The gates Keel knows, with the stage each has in platform release 1.34 and the default Keel
 * really has. Both daemons share one registry, as the real ones do (each binary registers every
 * gate), so a gate meant for one daemon is accepted, and ignored, by the other (docs/operations.md
 * says which daemon each gate acts in). Only gates whose behaviour Keel has, or could have, are
 * listed: naming any other real gate is an error, exactly like a misspelling.
 */
export const keelFeatures = {
  AllAlpha: { default: false, preRelease: 'ALPHA' },
  AllBeta: { default: false, preRelease: 'BETA' },

  // API server
  APIResponseCompression: { default: true, preRelease: 'BETA' },
  APIServerIdentity: { default: true, preRelease: 'BETA' },
  APIServerTracing: { default: true, preRelease: 'GA', lockToDefault: true },
  AllowParsingUserUIDFromCertAuth: {
    default: false,
    preRelease: 'BETA',
    keel: { fixed: "does not read a user UID from the client certificate's OID 1.3.6.1.4.1.57683.2" },
  },
  AnonymousAuthConfigurableEndpoints: { default: true, preRelease: 'GA', lockToDefault: true },
  CBORServingAndStorage: {
    default: false,
    preRelease: 'ALPHA',
    keel: { fixed: 'serves and stores no CBOR' },
  },
  ConsistentListFromCache: { default: true, preRelease: 'GA', lockToDefault: true },
  RemoteRequestHeaderUID: {
    default: false,
    preRelease: 'BETA',
    keel: {
      fixed: 'reads no user UID from front-proxy request headers and has no --requestheader-uid-headers',
    },
  },
  RetryGenerateName: { default: true, preRelease: 'GA', lockToDefault: true },
  StorageVersionHash: { default: true, preRelease: 'BETA' },
  UnauthenticatedHTTP2DOSMitigation: { default: true, preRelease: 'BETA' },
  WatchCacheInitializationPostStartHook: {
    default: false,
    preRelease: 'BETA',
    keel: {
      meaningless:
        'fills a watch cache on the first list of its resource, so start-up has no cache initialization for /readyz to wait for',
    },
  },
  WatchList: { default: true, preRelease: 'BETA' },

  // Scheduler
  SchedulerAsyncPreemption: {
    default: true,
    preRelease: 'BETA',
    keel: {
      fixed:
        "preempts only asynchronously: the victims' deletions always run outside the scheduling cycle",
    },
  },
  SchedulerPopFromBackoffQ: {
    default: false,
    preRelease: 'BETA',
    keel: { fixed: 'pops pods only from the active queue, so a pod in backoff always waits its backoff out' },
  },
  SchedulerQueueingHints: { default: true, preRelease: 'GA', lockToDefault: true },
} as const satisfies Readonly<Record<string, FeatureSpec>>;

export type KnownFeature = keyof typeof keelFeatures;
