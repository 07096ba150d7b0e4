/**
 * The served versions of FlowSchema and PriorityLevelConfiguration: v1 (the stored form), v1beta3
 * (the same fields, nominalConcurrencyShares a plain int32) and v1beta2/v1beta1, whose
 * assuredConcurrencyShares is v1's nominalConcurrencyShares. Each version applies its own
 * defaults on decode, as upstream's conversion through the internal type does.
 */
import { defaultMetaFieldLabels, type FieldError } from '@keel/apimachinery';
import {
  ageColumn,
  always,
  beforeCreate,
  beforeUpdate,
  bool,
  column,
  int32,
  list,
  named,
  nameColumn,
  objectMetaSpec,
  ptr,
  since,
  str,
  struct,
  time,
  wireCodec,
  type ResourceView,
  type Scheme,
  type StatusHooks,
  type StructSpec,
  type WireSpec,
} from '@keel/resource';
import {
  CONDITION_DANGLING,
  GROUP,
  PRIORITY_LEVEL_LIMITED,
  type FlowSchema,
  type PriorityLevelConfiguration,
} from './types.js';
import { validateFlowSchema, validatePriorityLevelConfiguration } from './validation.js';

export const FLOWCONTROL_VERSIONS = ['v1', 'v1beta3', 'v1beta2', 'v1beta1'] as const;
export type FlowControlVersion = (typeof FLOWCONTROL_VERSIONS)[number];

const OPTION_KINDS = [
  'WatchEvent',
  'ListOptions',
  'GetOptions',
  'DeleteOptions',
  'CreateOptions',
  'UpdateOptions',
  'PatchOptions',
];
const scheme: Scheme = new Map(
  FLOWCONTROL_VERSIONS.map((v) => [
    `${GROUP}/${v}`,
    new Set([
      'FlowSchema',
      'FlowSchemaList',
      'PriorityLevelConfiguration',
      'PriorityLevelConfigurationList',
      ...OPTION_KINDS,
    ]),
  ]),
);

const target = (version: string, kind: string) => ({
  group: GROUP,
  version,
  kind,
  scheme,
  internalPackage: 'k8s.io/kubernetes/pkg/apis/flowcontrol',
});

const strings = (goType = '[]string'): WireSpec => list(str, goType);

function specs(v: string) {
  const condition = (kind: string): StructSpec =>
    struct(`${v}.${kind}Condition`, {
      type: str,
      status: str,
      lastTransitionTime: ptr(time),
      reason: str,
      message: str,
    });
  const flowSchema = struct(`${v}.FlowSchema`, {
    kind: str,
    apiVersion: str,
    metadata: objectMetaSpec,
    spec: struct(`${v}.FlowSchemaSpec`, {
      priorityLevelConfiguration: struct(`${v}.PriorityLevelConfigurationReference`, { name: always(str) }),
      matchingPrecedence: int32,
      distinguisherMethod: ptr(
        struct(`${v}.FlowDistinguisherMethod`, { type: always(named(`${v}.FlowDistinguisherMethodType`)) }),
      ),
      rules: list(
        struct(`${v}.PolicyRulesWithSubjects`, {
          subjects: always(
            list(
              struct(`${v}.Subject`, {
                kind: always(named(`${v}.SubjectKind`)),
                user: ptr(struct(`${v}.UserSubject`, { name: always(str) })),
                group: ptr(struct(`${v}.GroupSubject`, { name: always(str) })),
                serviceAccount: ptr(
                  struct(`${v}.ServiceAccountSubject`, { namespace: always(str), name: always(str) }),
                ),
              }),
              `[]${v}.Subject`,
            ),
          ),
          resourceRules: list(
            struct(`${v}.ResourcePolicyRule`, {
              verbs: always(strings()),
              apiGroups: always(strings()),
              resources: always(strings()),
              clusterScope: bool,
              namespaces: strings(),
            }),
            `[]${v}.ResourcePolicyRule`,
          ),
          nonResourceRules: list(
            struct(`${v}.NonResourcePolicyRule`, {
              verbs: always(strings()),
              nonResourceURLs: always(strings()),
            }),
            `[]${v}.NonResourcePolicyRule`,
          ),
        }),
        `[]${v}.PolicyRulesWithSubjects`,
      ),
    }),
    status: struct(`${v}.FlowSchemaStatus`, {
      conditions: list(condition('FlowSchema'), `[]${v}.FlowSchemaCondition`),
    }),
  });
  const shares = v === 'v1beta1' || v === 'v1beta2' ? 'assuredConcurrencyShares' : 'nominalConcurrencyShares';
  const priorityLevel = struct(`${v}.PriorityLevelConfiguration`, {
    kind: str,
    apiVersion: str,
    metadata: objectMetaSpec,
    spec: struct(`${v}.PriorityLevelConfigurationSpec`, {
      type: always(named(`${v}.PriorityLevelEnablement`)),
      limited: ptr(
        struct(`${v}.LimitedPriorityLevelConfiguration`, {
          [shares]: v === 'v1' ? ptr(int32) : always(int32),
          limitResponse: struct(`${v}.LimitResponse`, {
            type: always(named(`${v}.LimitResponseType`)),
            queuing: ptr(
              struct(`${v}.QueuingConfiguration`, {
                queues: int32,
                handSize: int32,
                queueLengthLimit: int32,
              }),
            ),
          }),
          lendablePercent: ptr(int32),
          borrowingLimitPercent: ptr(int32),
        }),
      ),
      exempt: ptr(
        struct(`${v}.ExemptPriorityLevelConfiguration`, {
          nominalConcurrencyShares: ptr(int32),
          lendablePercent: ptr(int32),
        }),
      ),
    }),
    status: struct(`${v}.PriorityLevelConfigurationStatus`, {
      conditions: list(condition('PriorityLevelConfiguration'), `[]${v}.PriorityLevelConfigurationCondition`),
    }),
  });
  return { flowSchema, priorityLevel, shares };
}

/** SetDefaults_FlowSchemaSpec. */
function defaultFlowSchema(fs: FlowSchema): void {
  fs.spec ??= { priorityLevelConfiguration: { name: '' } };
  fs.spec.priorityLevelConfiguration ??= { name: '' };
  if (!fs.spec.matchingPrecedence) fs.spec.matchingPrecedence = 1000;
}

/** SetDefaults for the limited and exempt configurations and their queuing, v1's values. */
function defaultPriorityLevel(pl: PriorityLevelConfiguration, zeroSharesMeansDefault: boolean): void {
  pl.spec ??= { type: '' };
  const { limited, exempt } = pl.spec;
  if (limited) {
    if (
      limited.nominalConcurrencyShares === undefined ||
      (zeroSharesMeansDefault && limited.nominalConcurrencyShares === 0)
    )
      limited.nominalConcurrencyShares = 30;
    limited.lendablePercent ??= 0;
    limited.limitResponse ??= { type: '' };
    const q = limited.limitResponse.queuing;
    if (q) {
      if (!q.handSize) q.handSize = 8;
      if (!q.queues) q.queues = 64;
      if (!q.queueLengthLimit) q.queueLengthLimit = 50;
    }
  }
  if (exempt) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
}

/** Renames a limited level's shares field between a version's name and the stored one. */
function renameShares(obj: Record<string, unknown>, from: string, to: string): void {
  const limited = (obj['spec'] as Record<string, unknown> | undefined)?.['limited'] as
    Record<string, unknown> | undefined;
  if (from === to || !limited || !(from in limited)) return;
  limited[to] = limited[from];
  delete limited[from];
}

function generation(
  obj: { metadata: { generation?: number } },
  old?: { metadata: { generation?: number } },
  specChanged = true,
): void {
  obj.metadata.generation = old ? (old.metadata.generation ?? 0) + (specChanged ? 1 : 0) : 1;
}

const sameSpec = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const keep = <T extends { spec?: unknown; status?: unknown }>(
  obj: T,
  old: T,
  key: 'spec' | 'status',
): void => {
  if (old[key] === undefined) delete obj[key];
  else obj[key] = structuredClone(old[key]);
};

type View<I extends FlowSchema | PriorityLevelConfiguration> = ResourceView<I> &
  StatusHooks<I> & { readonly categories: readonly string[] };

function base(version: string) {
  return {
    group: GROUP,
    version,
    apiVersion: `${GROUP}/${version}`,
    categories: [] as string[],
    shortNames: [] as string[],
    namespaced: false,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    fieldLabels: ['metadata.name'],
    convertFieldLabel: defaultMetaFieldLabels,
    smpSchema: {
      'metadata.finalizers': { patchStrategy: 'merge' },
      'metadata.ownerReferences': 'uid',
      'status.conditions': 'type',
    },
    fields: (o: { metadata: { name?: string } }) => ({ 'metadata.name': o.metadata.name ?? '' }),
  } as const;
}

function flowSchemaView(version: FlowControlVersion): View<FlowSchema> {
  const { flowSchema } = specs(version);
  const validateUpdate = (fs: FlowSchema, old: FlowSchema): FieldError[] =>
    beforeUpdate(fs.metadata, old.metadata, false, validateFlowSchema(fs));
  return {
    ...base(version),
    resource: 'flowschemas',
    kind: 'FlowSchema',
    listKind: 'FlowSchemaList',
    singular: 'flowschema',
    storageVersionHash: 'GJVAJZSZBIw=',
    invalidKind: { group: GROUP, kind: 'FlowSchema' },
    ...wireCodec<FlowSchema>(target(version, 'FlowSchema'), flowSchema, defaultFlowSchema),
    prepareForCreate: (fs) => {
      delete fs.status;
      generation(fs);
    },
    prepareForUpdate: (fs, old) => {
      keep(fs, old, 'status');
      generation(fs, old, !sameSpec(fs.spec, old.spec));
    },
    prepareStatusUpdate: (fs, old) => {
      keep(fs, old, 'spec');
      fs.metadata.generation = old.metadata.generation ?? 1;
    },
    validateCreate: (fs) => beforeCreate(validateFlowSchema(fs), fs.metadata, false),
    validateUpdate,
    validateStatusUpdate: (fs, old) => beforeUpdate(fs.metadata, old.metadata, false, []),
    tableColumns: [
      nameColumn,
      column(
        'PriorityLevel',
        '`name` is the name of the priority level configuration being referenced Required.',
      ),
      column(
        'MatchingPrecedence',
        '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
      ),
      column(
        'DistinguisherMethod',
        '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
      ),
      ageColumn,
      column('MissingPL', 'references a broken or non-existent PriorityLevelConfiguration'),
    ],
    tableRow: (fs, now) => {
      const dangling = fs.status?.conditions?.find((c) => c.type === CONDITION_DANGLING);
      return [
        fs.metadata.name ?? '',
        fs.spec.priorityLevelConfiguration.name,
        fs.spec.matchingPrecedence ?? 0,
        fs.spec.distinguisherMethod?.type ?? '<none>',
        since(fs.metadata.creationTimestamp, now),
        dangling?.status ?? '?',
      ];
    },
  };
}

function priorityLevelView(version: FlowControlVersion): View<PriorityLevelConfiguration> {
  const { priorityLevel, shares } = specs(version);
  const codec = wireCodec<PriorityLevelConfiguration>(
    target(version, 'PriorityLevelConfiguration'),
    priorityLevel,
  );
  const zeroSharesMeansDefault = version !== 'v1';
  const sharesColumn =
    shares === 'nominalConcurrencyShares' ? 'NominalConcurrencyShares' : 'AssuredConcurrencyShares';
  return {
    ...base(version),
    resource: 'prioritylevelconfigurations',
    kind: 'PriorityLevelConfiguration',
    listKind: 'PriorityLevelConfigurationList',
    singular: 'prioritylevelconfiguration',
    storageVersionHash: 'Kir5PVfvNeI=',
    invalidKind: { group: GROUP, kind: 'PriorityLevelConfiguration' },
    decode(body) {
      const decoded = codec.decode(body);
      renameShares(decoded.object as unknown as Record<string, unknown>, shares, 'nominalConcurrencyShares');
      defaultPriorityLevel(decoded.object, zeroSharesMeansDefault);
      return decoded;
    },
    encode(obj) {
      const copy = structuredClone(obj) as unknown as Record<string, unknown>;
      renameShares(copy, 'nominalConcurrencyShares', shares);
      return codec.encode(copy as unknown as PriorityLevelConfiguration);
    },
    prepareForCreate: (pl) => {
      delete pl.status;
      generation(pl);
    },
    prepareForUpdate: (pl, old) => {
      keep(pl, old, 'status');
      generation(pl, old, !sameSpec(pl.spec, old.spec));
    },
    prepareStatusUpdate: (pl, old) => {
      keep(pl, old, 'spec');
      pl.metadata.generation = old.metadata.generation ?? 1;
    },
    validateCreate: (pl) => beforeCreate(validatePriorityLevelConfiguration(pl), pl.metadata, false),
    validateUpdate: (pl, old) =>
      beforeUpdate(pl.metadata, old.metadata, false, validatePriorityLevelConfiguration(pl)),
    validateStatusUpdate: (pl, old) => beforeUpdate(pl.metadata, old.metadata, false, []),
    tableColumns: [
      nameColumn,
      column(
        'Type',
        '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
      ),
      column(
        sharesColumn,
        `\`${shares}\` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level.`,
      ),
      column(
        'Queues',
        '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.',
      ),
      column(
        'HandSize',
        "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.",
      ),
      column(
        'QueueLengthLimit',
        '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.',
      ),
      ageColumn,
    ],
    tableRow: (pl, now) => {
      const limited = pl.spec.type === PRIORITY_LEVEL_LIMITED ? pl.spec.limited : undefined;
      const q = limited?.limitResponse.queuing;
      return [
        pl.metadata.name ?? '',
        pl.spec.type,
        limited ? (limited.nominalConcurrencyShares ?? 0) : '<none>',
        q ? (q.queues ?? 0) : '<none>',
        q ? (q.handSize ?? 0) : '<none>',
        q ? (q.queueLengthLimit ?? 0) : '<none>',
        since(pl.metadata.creationTimestamp, now),
      ];
    },
  };
}

export const flowSchemaViews: readonly View<FlowSchema>[] = FLOWCONTROL_VERSIONS.map(flowSchemaView);
export const priorityLevelViews: readonly View<PriorityLevelConfiguration>[] =
  FLOWCONTROL_VERSIONS.map(priorityLevelView);
