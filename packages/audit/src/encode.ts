/**
 * Events as the real server serializes them: members in Go's struct order, empty ones left out,
 * map keys sorted, and Go's HTML-safe JSON escapes. v1beta1 adds the deprecated
 * `metadata.creationTimestamp` (the stage time) and `timestamp` (the request time), in whole
 * seconds.
 *
 * The text is built field by field rather than with JSON.stringify over a wire object: every
 * audited request encodes two or more events, and the event's fixed shape lets the encoder skip
 * the generic walk (measured at a fifth of the time). Only the free-form parts (objects, status
 * details) go through goJsonMarshal.
 */
import { goJsonMarshal, goQuote } from '@keel/apimachinery';
import { formatMicro, formatRFC3339Nano, formatSeconds } from './clock.js';
import type { AuditEvent, AuditVersion, EventUser, ObjectReference, ResponseStatus } from './types.js';

// Anything Go's encoder would write other than as itself; control characters are the point.
// eslint-disable-next-line no-control-regex
const escapable = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

function str(s: string): string {
  return escapable.test(s) ? goJsonMarshal(s) : `"${s}"`;
}

function strList(list: readonly string[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) out += (i > 0 ? ',' : '') + str(list[i] as string);
  return `${out}]`;
}

function sortedKeys(m: object): string[] {
  // Go sorts map keys by their bytes; for the ASCII keys annotations and extras use, that is
  // the default sort.
  return Object.keys(m).sort();
}

function user(u: EventUser): string {
  const parts: string[] = [];
  if (u.username) parts.push(`"username":${str(u.username)}`);
  if (u.uid) parts.push(`"uid":${str(u.uid)}`);
  if (u.groups && u.groups.length > 0) parts.push(`"groups":${strList(u.groups)}`);
  if (u.extra && Object.keys(u.extra).length > 0) {
    const extra = u.extra;
    const members = sortedKeys(extra).map((k) => {
      const v = extra[k];
      return `${str(k)}:${v ? strList(v) : 'null'}`;
    });
    parts.push(`"extra":{${members.join(',')}}`);
  }
  return `{${parts.join(',')}}`;
}

const REF_FIELDS = [
  'resource',
  'namespace',
  'name',
  'uid',
  'apiGroup',
  'apiVersion',
  'resourceVersion',
  'subresource',
] as const satisfies readonly (keyof ObjectReference)[];

function objectRef(ref: Readonly<ObjectReference>): string {
  const parts: string[] = [];
  for (const f of REF_FIELDS) {
    const v = ref[f];
    if (v) parts.push(`"${f}":${str(v)}`);
  }
  return `{${parts.join(',')}}`;
}

function responseStatus(s: ResponseStatus): string {
  let out = '{"metadata":{}';
  if (s.status) out += `,"status":${str(s.status)}`;
  if (s.message) out += `,"message":${str(s.message)}`;
  if (s.reason) out += `,"reason":${str(s.reason)}`;
  if (s.details !== undefined && s.details !== null) out += `,"details":${goJsonMarshal(s.details)}`;
  return `${out},"code":${s.code}}`;
}

function annotations(a: Readonly<Record<string, string>>): string {
  return `{${sortedKeys(a)
    .map((k) => `${str(k)}:${str(a[k] ?? '')}`)
    .join(',')}}`;
}

/** One event as JSON, without the trailing newline. */
export function encodeEvent(ev: AuditEvent, version: AuditVersion): string {
  const beta = version === 'audit.k8s.io/v1beta1';
  let out = `{"kind":"Event","apiVersion":"${version}"`;
  if (beta) out += `,"metadata":{"creationTimestamp":"${formatSeconds(ev.stageTimestamp)}"}`;
  out += `,"level":"${ev.level}"`;
  if (beta) out += `,"timestamp":"${formatSeconds(ev.requestReceivedTimestamp)}"`;
  out += `,"auditID":${str(ev.auditID)},"stage":"${ev.stage}","requestURI":${str(ev.requestURI)}`;
  out += `,"verb":${str(ev.verb)},"user":${user(ev.user)}`;
  if (ev.impersonatedUser) out += `,"impersonatedUser":${user(ev.impersonatedUser)}`;
  if (ev.sourceIPs && ev.sourceIPs.length > 0) out += `,"sourceIPs":${strList(ev.sourceIPs)}`;
  if (ev.userAgent) out += `,"userAgent":${str(ev.userAgent)}`;
  if (ev.objectRef) out += `,"objectRef":${objectRef(ev.objectRef)}`;
  if (ev.responseStatus) out += `,"responseStatus":${responseStatus(ev.responseStatus)}`;
  if (ev.requestObject !== undefined) out += `,"requestObject":${goJsonMarshal(ev.requestObject)}`;
  if (ev.responseObject !== undefined) out += `,"responseObject":${goJsonMarshal(ev.responseObject)}`;
  out += `,"requestReceivedTimestamp":"${formatMicro(ev.requestReceivedTimestamp)}"`;
  out += `,"stageTimestamp":"${formatMicro(ev.stageTimestamp)}"`;
  if (ev.annotations && Object.keys(ev.annotations).length > 0)
    out += `,"annotations":${annotations(ev.annotations)}`;
  return `${out}}`;
}

/** The body a webhook receives. */
export function encodeEventList(events: readonly AuditEvent[], version: AuditVersion): string {
  const items = events.map((e) => encodeEvent(e, version)).join(',');
  return `{"kind":"EventList","apiVersion":"${version}","metadata":{},"items":[${items}]}`;
}

function quotedList(list: readonly string[]): string {
  return list.map(goQuote).join(',');
}

function userName(u: EventUser): string {
  return u.username ?? '';
}

/** The legacy log line (kube's audit.EventString), without the trailing newline. */
export function legacyLine(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (userName(ev.user) !== '') {
    username = userName(ev.user);
    if (ev.user.groups && ev.user.groups.length > 0) groups = quotedList(ev.user.groups);
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    asUser = userName(ev.impersonatedUser);
    if (ev.impersonatedUser.groups) asGroups = quotedList(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace ? ev.objectRef.namespace : '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs && ev.sourceIPs.length > 0 ? (ev.sourceIPs[0] ?? '<unknown>') : '<unknown>';
  return (
    `${formatRFC3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${goQuote(ev.auditID)} stage=${goQuote(ev.stage)} ` +
    `ip=${goQuote(ip)} method=${goQuote(ev.verb)} user=${goQuote(username)} groups=${goQuote(groups)} ` +
    `as=${goQuote(asUser)} asgroups=${goQuote(asGroups)} user-agent=${goQuote(ev.userAgent ?? '')} ` +
    `namespace=${goQuote(namespace)} uri=${goQuote(ev.requestURI)} response="${response}"`
  );
}
