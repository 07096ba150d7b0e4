/**
 * Priority (kube's plugin/pkg/admission/priority): a new pod's priority and preemption policy
 * come from its PriorityClass, or the global default class when it names none (its name is then
 * written into the pod), or 0 with PreemptLowerPriority when there is no default. A pod that
 * states a priority or policy other than the computed one is refused. An update keeps what
 * create set. PriorityClass writes are checked so that only one class is the global default.
 */
import { badRequest } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes } from '../attributes.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionPlugin } from '../plugin.js';
import type { ObjectIndex } from '../registry.js';
import { obj, str } from './json.js';

export interface PriorityDeps {
  /** The served PriorityClasses (a watched copy). */
  readonly classes: ObjectIndex;
  /** Reads one class from the store: a class created a moment ago may not be in the copy yet. */
  readonly readClass: (name: string) => Promise<StoredObject | undefined>;
}

interface ResolvedClass {
  readonly name: string;
  readonly value: number;
  readonly preemptionPolicy: string | undefined;
}

const NO_DEFAULT: ResolvedClass = { name: '', value: 0, preemptionPolicy: 'PreemptLowerPriority' };

const isPods = (a: AdmissionAttributes) => a.resource.group === '' && a.resource.resource === 'pods';
const isClasses = (a: AdmissionAttributes) =>
  a.resource.group === 'scheduling.k8s.io' && a.resource.resource === 'priorityclasses';

function resolved(pc: StoredObject): ResolvedClass {
  const o = obj(pc) ?? {};
  const policy = str(o['preemptionPolicy']);
  return {
    name: pc.metadata?.name ?? '',
    value: typeof o['value'] === 'number' ? o['value'] : 0,
    preemptionPolicy: policy === '' ? undefined : policy,
  };
}

/** The global default class; after a race left several, the one with the lowest value (as upstream). */
function defaultClass(classes: ObjectIndex): StoredObject | undefined {
  let found: StoredObject | undefined;
  for (const pc of classes.list()) {
    if (obj(pc)?.['globalDefault'] !== true) continue;
    if (!found || resolved(found).value > resolved(pc).value) found = pc;
  }
  return found;
}

async function admitPod(attrs: AdmissionAttributes, deps: PriorityDeps): Promise<void> {
  const pod = obj(attrs.object);
  if (!pod) throw badRequest('resource was marked with kind Pod but was unable to be converted');
  const spec = obj(pod['spec']) ?? (pod['spec'] = {});
  if (attrs.operation === 'UPDATE') {
    // Create set these; an update that leaves them out keeps them (validation refuses changes).
    const old = obj(obj(attrs.oldObject)?.['spec']) ?? {};
    if (spec['priority'] === undefined && old['priority'] !== undefined) spec['priority'] = old['priority'];
    if (spec['preemptionPolicy'] === undefined && old['preemptionPolicy'] !== undefined)
      spec['preemptionPolicy'] = old['preemptionPolicy'];
    return;
  }
  const className = str(spec['priorityClassName']);
  let pc: ResolvedClass;
  if (className === '') {
    const dpc = defaultClass(deps.classes);
    pc = dpc ? resolved(dpc) : NO_DEFAULT;
    if (pc.name !== '') spec['priorityClassName'] = pc.name;
  } else {
    const found = deps.classes.get('', className) ?? (await deps.readClass(className));
    if (!found) throw admissionForbidden(attrs, `no PriorityClass with name ${className} was found`);
    pc = resolved(found);
  }
  const given = spec['priority'];
  if (given !== undefined && given !== null && given !== pc.value) {
    throw admissionForbidden(
      attrs,
      `the integer value of priority (${JSON.stringify(given)}) must not be provided in pod spec; priority admission controller computed ${pc.value} from the given PriorityClass name`,
    );
  }
  spec['priority'] = pc.value;
  if (pc.preemptionPolicy !== undefined) {
    const policy = str(spec['preemptionPolicy']);
    if (policy !== '' && policy !== pc.preemptionPolicy) {
      throw admissionForbidden(
        attrs,
        `the string value of PreemptionPolicy (${policy}) must not be provided in pod spec; priority admission controller computed ${pc.preemptionPolicy} from the given PriorityClass name`,
      );
    }
    spec['preemptionPolicy'] = pc.preemptionPolicy;
  }
}

function validateClass(attrs: AdmissionAttributes, deps: PriorityDeps): void {
  const pc = obj(attrs.object);
  if (!pc) throw badRequest('resource was marked with kind PriorityClass but was unable to be converted');
  if (pc['globalDefault'] !== true) return;
  const current = defaultClass(deps.classes);
  if (!current) return;
  const name = current.metadata?.name ?? '';
  // Re-saving the default itself is fine; a second one, created or marked, is not.
  if (attrs.operation === 'CREATE' || name !== str(obj(pc['metadata'])?.['name'])) {
    throw admissionForbidden(
      attrs,
      `PriorityClass ${name} is already marked as default. Only one default can exist`,
    );
  }
}

export function priority(deps: PriorityDeps): AdmissionPlugin {
  return {
    name: 'Priority',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    admit: async (attrs) => {
      if (attrs.subresource === '' && isPods(attrs)) await admitPod(attrs, deps);
    },
    validate: (attrs) => {
      if (attrs.subresource === '' && isClasses(attrs)) validateClass(attrs, deps);
    },
  };
}
