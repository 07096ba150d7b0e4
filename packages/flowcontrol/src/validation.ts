/**
 * ValidateFlowSchema and ValidatePriorityLevelConfiguration (pkg/apis/flowcontrol/validation),
 * with upstream's messages: the spec checks only; metadata is checked by the registry.
 */
import {
  FieldPath,
  forbiddenField,
  invalidValue,
  isDNS1123Label,
  notSupported,
  required,
  validatePathSegmentName,
  type FieldError,
} from '@keel/apimachinery';
import {
  CATCH_ALL,
  EXEMPT,
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
} from './bootstrap.js';
import { MAX_HASH_BITS, requiredEntropyBits } from './shuffle-sharding.js';
import {
  DISTINGUISHER_BY_NAMESPACE,
  DISTINGUISHER_BY_USER,
  LIMIT_RESPONSE_QUEUE,
  LIMIT_RESPONSE_REJECT,
  NAMESPACE_EVERY,
  PRIORITY_LEVEL_EXEMPT,
  PRIORITY_LEVEL_LIMITED,
  SUBJECT_KIND_GROUP,
  SUBJECT_KIND_SERVICE_ACCOUNT,
  SUBJECT_KIND_USER,
  VERB_ALL,
  type FlowSchema,
  type NonResourcePolicyRule,
  type PriorityLevelConfiguration,
  type ResourcePolicyRule,
  type Subject,
} from './types.js';

const SUBJECT_KINDS = [SUBJECT_KIND_GROUP, SUBJECT_KIND_SERVICE_ACCOUNT, SUBJECT_KIND_USER];
const DISTINGUISHERS = [DISTINGUISHER_BY_NAMESPACE, DISTINGUISHER_BY_USER];
const LEVEL_TYPES = [PRIORITY_LEVEL_EXEMPT, PRIORITY_LEVEL_LIMITED];
const LIMIT_RESPONSES = [LIMIT_RESPONSE_QUEUE, LIMIT_RESPONSE_REJECT];

/** Go's %#v-free comparison of two specs: same JSON, key order aside. */
function sameJSON(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .filter(([, x]) => x !== undefined && x !== false)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, x]) => [k, canon(x)]),
          )
        : v;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function validateSubject(s: Subject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  switch (s.kind) {
    case SUBJECT_KIND_SERVICE_ACCOUNT:
      if (!s.serviceAccount)
        errs.push(
          required(
            p.child('serviceAccount'),
            "serviceAccount is required when subject kind is 'ServiceAccount'",
          ),
        );
      else {
        if (!s.serviceAccount.name) errs.push(required(p.child('serviceAccount', 'name')));
        if (!s.serviceAccount.namespace) errs.push(required(p.child('serviceAccount', 'namespace')));
      }
      if (s.user)
        errs.push(forbiddenField(p.child('user'), "user is forbidden when subject kind is not 'User'"));
      if (s.group)
        errs.push(forbiddenField(p.child('group'), "group is forbidden when subject kind is not 'Group'"));
      break;
    case SUBJECT_KIND_USER:
      if (!s.user) errs.push(required(p.child('user'), "user is required when subject kind is 'User'"));
      else if (!s.user.name) errs.push(required(p.child('user', 'name')));
      if (s.serviceAccount)
        errs.push(
          forbiddenField(
            p.child('serviceAccount'),
            "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
          ),
        );
      if (s.group)
        errs.push(forbiddenField(p.child('group'), "group is forbidden when subject kind is not 'Group'"));
      break;
    case SUBJECT_KIND_GROUP:
      if (!s.group) errs.push(required(p.child('group'), "group is required when subject kind is 'Group'"));
      else if (!s.group.name) errs.push(required(p.child('group', 'name')));
      if (s.serviceAccount)
        errs.push(
          forbiddenField(
            p.child('serviceAccount'),
            "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
          ),
        );
      if (s.user)
        errs.push(forbiddenField(p.child('user'), "user is forbidden when subject kind is not 'User'"));
      break;
    default:
      errs.push(notSupported(p.child('kind'), s.kind, SUBJECT_KINDS));
  }
  return errs;
}

function validateVerbs(verbs: readonly string[] | undefined, p: FieldPath): FieldError[] {
  if (!verbs || verbs.length === 0) return [required(p, 'verbs must contain at least one value')];
  if (verbs.includes(VERB_ALL) && verbs.length > 1)
    return [invalidValue(p, verbs, "if '*' is present, must not specify other verbs")];
  return [];
}

function validateResourceRule(r: ResourcePolicyRule, p: FieldPath): FieldError[] {
  const errs = validateVerbs(r.verbs, p.child('verbs'));
  if (!r.apiGroups || r.apiGroups.length === 0)
    errs.push(required(p.child('apiGroups'), 'resource rules must supply at least one api group'));
  else if (r.apiGroups.includes('*') && r.apiGroups.length > 1)
    errs.push(
      invalidValue(p.child('apiGroups'), r.apiGroups, "if '*' is present, must not specify other api groups"),
    );
  if (!r.resources || r.resources.length === 0)
    errs.push(required(p.child('resources'), 'resource rules must supply at least one resource'));
  else if (r.resources.includes('*') && r.resources.length > 1)
    errs.push(
      invalidValue(p.child('resources'), r.resources, "if '*' is present, must not specify other resources"),
    );
  const namespaces = r.namespaces ?? [];
  if (namespaces.length === 0 && !r.clusterScope) {
    errs.push(
      required(
        p.child('namespaces'),
        'resource rules that are not cluster scoped must supply at least one namespace',
      ),
    );
  } else if (namespaces.includes(NAMESPACE_EVERY)) {
    if (namespaces.length > 1)
      errs.push(
        invalidValue(
          p.child('namespaces'),
          namespaces,
          "if '*' is present, must not specify other namespaces",
        ),
      );
  } else {
    namespaces.forEach((ns, i) => {
      const problems = isDNS1123Label(ns);
      if (problems.length > 0)
        errs.push(invalidValue(p.child('namespaces').index(i), ns, problems.join(',')));
    });
  }
  return errs;
}

function validateNonResourceRule(r: NonResourcePolicyRule, p: FieldPath): FieldError[] {
  const errs = validateVerbs(r.verbs, p.child('verbs'));
  const urls = r.nonResourceURLs ?? [];
  if (urls.length === 0)
    errs.push(required(p.child('nonResourceURLs'), 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*') && urls.length > 1)
    errs.push(
      invalidValue(
        p.child('nonResourceURLs'),
        urls,
        "if '*' is present, must not specify other non-resource URLs",
      ),
    );
  else
    urls.forEach((u, i) => {
      if (u !== '*' && !u.startsWith('/'))
        errs.push(
          invalidValue(p.child('nonResourceURLs').index(i), u, "must start with slash, e.g. '/healthz'"),
        );
    });
  return errs;
}

export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const spec = FieldPath.of('spec');
  const errs: FieldError[] = [];
  const name = fs.metadata.name ?? '';
  const mandatory = mandatoryFlowSchemas.find((m) => m.metadata.name === name);
  if (mandatory && !sameJSON(fs.spec, mandatory.spec)) {
    errs.push(invalidValue(spec, fs.spec, `spec of '${name}' must equal the fixed value`));
  }
  const precedence = fs.spec.matchingPrecedence ?? 0;
  if (precedence <= 0)
    errs.push(invalidValue(spec.child('matchingPrecedence'), precedence, 'must be a positive value'));
  if (precedence > 10000)
    errs.push(invalidValue(spec.child('matchingPrecedence'), precedence, 'must not be greater than 10000'));
  const dm = fs.spec.distinguisherMethod;
  if (dm && !DISTINGUISHERS.includes(dm.type))
    errs.push(notSupported(spec.child('distinguisherMethod', 'type'), dm.type, DISTINGUISHERS));
  const plName = fs.spec.priorityLevelConfiguration.name;
  if (!plName)
    errs.push(required(spec.child('priorityLevelConfiguration', 'name'), 'must reference a priority level'));
  else
    for (const msg of validatePathSegmentName(plName, false))
      errs.push(invalidValue(spec.child('priorityLevelConfiguration', 'name'), plName, msg));
  (fs.spec.rules ?? []).forEach((rule, i) => {
    const p = spec.child('rules').index(i);
    const subjects = rule.subjects ?? [];
    if (subjects.length === 0)
      errs.push(required(p.child('subjects'), 'subjects must contain at least one value'));
    subjects.forEach((s, j) => errs.push(...validateSubject(s, p.child('subjects').index(j))));
    const rr = rule.resourceRules ?? [];
    const nr = rule.nonResourceRules ?? [];
    if (rr.length === 0 && nr.length === 0)
      errs.push(required(p, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    rr.forEach((r, j) => errs.push(...validateResourceRule(r, p.child('resourceRules').index(j))));
    nr.forEach((r, j) => errs.push(...validateNonResourceRule(r, p.child('nonResourceRules').index(j))));
  });
  return errs;
}

const percent = (v: number | undefined, p: FieldPath): FieldError[] =>
  v !== undefined && (v < 0 || v > 100) ? [invalidValue(p, v, 'must be between 0 and 100, inclusive')] : [];

export function validatePriorityLevelConfiguration(pl: PriorityLevelConfiguration): FieldError[] {
  const spec = FieldPath.of('spec');
  const errs: FieldError[] = [];
  const name = pl.metadata.name ?? '';
  const { type, limited, exempt } = pl.spec;
  if (name === CATCH_ALL) {
    const mandatory = mandatoryPriorityLevelConfigurations.find((m) => m.metadata.name === CATCH_ALL);
    if (mandatory && !sameJSON(pl.spec, mandatory.spec))
      errs.push(invalidValue(spec, pl.spec, `spec of '${name}' must equal the fixed value`));
  }
  if ((name === EXEMPT) !== (type === PRIORITY_LEVEL_EXEMPT))
    errs.push(
      invalidValue(spec.child('type'), type, "type must be 'Exempt' if and only if name is 'exempt'"),
    );
  switch (type) {
    case PRIORITY_LEVEL_EXEMPT:
      if (limited) errs.push(forbiddenField(spec.child('limited'), 'must be nil if the type is not Limited'));
      if (exempt) {
        const ncs = exempt.nominalConcurrencyShares ?? 0;
        if (ncs < 0)
          errs.push(
            invalidValue(
              spec.child('exempt', 'nominalConcurrencyShares'),
              ncs,
              'must be a non-negative number',
            ),
          );
        errs.push(...percent(exempt.lendablePercent, spec.child('exempt', 'lendablePercent')));
      }
      break;
    case PRIORITY_LEVEL_LIMITED: {
      if (exempt) errs.push(forbiddenField(spec.child('exempt'), 'must be nil if the type is Limited'));
      if (!limited) {
        errs.push(required(spec.child('limited'), 'must not be empty when type is Limited'));
        break;
      }
      const lp = spec.child('limited');
      const ncs = limited.nominalConcurrencyShares ?? 0;
      if (ncs < 0)
        errs.push(invalidValue(lp.child('nominalConcurrencyShares'), ncs, 'must be a non-negative integer'));
      errs.push(...percent(limited.lendablePercent, lp.child('lendablePercent')));
      if (limited.borrowingLimitPercent !== undefined && limited.borrowingLimitPercent < 0)
        errs.push(
          invalidValue(
            lp.child('borrowingLimitPercent'),
            limited.borrowingLimitPercent,
            'if specified, must be a non-negative integer',
          ),
        );
      const lr = limited.limitResponse;
      const lrp = lp.child('limitResponse');
      if (lr.type === LIMIT_RESPONSE_REJECT) {
        if (lr.queuing)
          errs.push(
            forbiddenField(lrp.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited'),
          );
      } else if (lr.type === LIMIT_RESPONSE_QUEUE) {
        const q = lr.queuing;
        if (!q)
          errs.push(
            required(lrp.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited'),
          );
        else {
          const qp = lrp.child('queuing');
          const queues = q.queues ?? 0;
          const handSize = q.handSize ?? 0;
          const limit = q.queueLengthLimit ?? 0;
          if (limit <= 0) errs.push(invalidValue(qp.child('queueLengthLimit'), limit, 'must be positive'));
          if (queues <= 0) errs.push(invalidValue(qp.child('queues'), queues, 'must be positive'));
          else if (handSize <= 0) errs.push(invalidValue(qp.child('handSize'), handSize, 'must be positive'));
          else if (handSize > queues)
            errs.push(
              invalidValue(qp.child('handSize'), handSize, `should not be greater than queues (${queues})`),
            );
          else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS)
            errs.push(
              invalidValue(
                qp.child('handSize'),
                handSize,
                `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`,
              ),
            );
        }
      } else {
        errs.push(notSupported(lrp.child('type'), lr.type, LIMIT_RESPONSES));
      }
      break;
    }
    default:
      errs.push(notSupported(spec.child('type'), type, LEVEL_TYPES));
  }
  return errs;
}
