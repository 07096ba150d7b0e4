/**
 * The Event schemas of both served versions (k8s.io/api events/v1 and core/v1), as the real
 * server publishes them, so `kubectl explain` and schema-driven clients see the same fields.
 */
import { meta, listMetaField, typeMeta } from './schema-meta.js';
import { arrayOf, gvkExtension, int32, object, ref, str, type Definitions, type Schema } from './schema.js';

const core = 'io.k8s.api.core.v1';
const events = 'io.k8s.api.events.v1';

const metadataField = ref(
  `${meta}.ObjectMeta`,
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  { default: {} },
);
const microTime = (description: string): Schema => ref(`${meta}.MicroTime`, description);
const time = (description: string): Schema => ref(`${meta}.Time`, description);

function list(group: string, itemDef: string, description: string): Schema {
  return {
    ...object(
      description,
      {
        ...typeMeta,
        items: arrayOf(ref(itemDef, undefined, { default: {} }), 'items is a list of schema objects.'),
        metadata: listMetaField,
      },
      { required: ['items'] },
    ),
    ...gvkExtension({ group, kind: 'EventList', version: 'v1' }),
  };
}

const eventsV1Event: Schema = {
  ...object(
    'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.',
    {
      action: str(
        'action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
      ),
      apiVersion: typeMeta.apiVersion,
      deprecatedCount: int32(
        'deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.',
      ),
      deprecatedFirstTimestamp: time(
        'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
      ),
      deprecatedLastTimestamp: time(
        'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
      ),
      deprecatedSource: ref(
        `${core}.EventSource`,
        'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.',
        { default: {} },
      ),
      eventTime: microTime('eventTime is the time when this Event was first observed. It is required.'),
      kind: typeMeta.kind,
      metadata: metadataField,
      note: str(
        'note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.',
      ),
      reason: str(
        'reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
      ),
      regarding: ref(
        `${core}.ObjectReference`,
        "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.",
        { default: {} },
      ),
      related: ref(
        `${core}.ObjectReference`,
        'related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.',
      ),
      reportingController: str(
        'reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.',
        { default: '' },
      ),
      reportingInstance: str(
        'reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.',
        { default: '' },
      ),
      series: ref(
        `${events}.EventSeries`,
        "series is data about the Event series this event represents or nil if it's a singleton Event.",
      ),
      type: str(
        'type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.',
      ),
    },
    { required: ['eventTime'] },
  ),
  ...gvkExtension({ group: 'events.k8s.io', kind: 'Event', version: 'v1' }),
};

const coreV1Event: Schema = {
  ...object(
    'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.',
    {
      action: str('What action was taken/failed regarding to the Regarding object.'),
      apiVersion: typeMeta.apiVersion,
      count: int32('The number of times this event has occurred.'),
      eventTime: microTime('Time when this Event was first observed.'),
      firstTimestamp: time(
        'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
      ),
      involvedObject: ref(`${core}.ObjectReference`, 'The object that this event is about.', { default: {} }),
      kind: typeMeta.kind,
      lastTimestamp: time('The time at which the most recent occurrence of this event was recorded.'),
      message: str('A human-readable description of the status of this operation.'),
      metadata: metadataField,
      reason: str(
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
      ),
      related: ref(`${core}.ObjectReference`, 'Optional secondary object for more complex actions.'),
      reportingComponent: str(
        'Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.',
        { default: '' },
      ),
      reportingInstance: str('ID of the controller instance, e.g. `kubelet-xyzf`.', { default: '' }),
      series: ref(
        `${core}.EventSeries`,
        "Data about the Event series this event represents or nil if it's a singleton Event.",
      ),
      source: ref(
        `${core}.EventSource`,
        'The component reporting this event. Should be a short machine understandable string.',
        { default: {} },
      ),
      type: str('Type of this event (Normal, Warning), new types could be added in the future'),
    },
    { required: ['metadata', 'involvedObject'] },
  ),
  ...gvkExtension({ group: '', kind: 'Event', version: 'v1' }),
};

export const eventDefinitions: Definitions = {
  [`${events}.Event`]: eventsV1Event,
  [`${events}.EventList`]: list('events.k8s.io', `${events}.Event`, 'EventList is a list of Event objects.'),
  [`${events}.EventSeries`]: object(
    'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters.',
    {
      count: int32('count is the number of occurrences in this series up to the last heartbeat time.', {
        default: 0,
      }),
      lastObservedTime: microTime(
        'lastObservedTime is the time when last Event from the series was seen before last heartbeat.',
      ),
    },
    { required: ['count', 'lastObservedTime'] },
  ),
  [`${core}.Event`]: coreV1Event,
  [`${core}.EventList`]: list('', `${core}.Event`, 'EventList is a list of events.'),
  [`${core}.EventSeries`]: object(
    'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.',
    {
      count: int32('Number of occurrences in this series up to the last heartbeat time'),
      lastObservedTime: microTime('Time of the last occurrence observed'),
    },
  ),
  [`${core}.EventSource`]: object('EventSource contains information for an event.', {
    component: str('Component from which the event is generated.'),
    host: str('Node name on which the event is generated.'),
  }),
  [`${core}.ObjectReference`]: object(
    'ObjectReference contains enough information to let you inspect or modify the referred object.',
    {
      apiVersion: str('API version of the referent.'),
      fieldPath: str(
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].',
      ),
      kind: str('Kind of the referent.'),
      name: str('Name of the referent.'),
      namespace: str('Namespace of the referent.'),
      resourceVersion: str('Specific resourceVersion to which this reference is made, if any.'),
      uid: str('UID of the referent.'),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
};
