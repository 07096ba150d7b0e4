/**
 * Events as the real server serializes them: members in Go's struct order, empty ones left out,
 * and Go's HTML-safe JSON escapes. v1beta1 adds the deprecated `metadata.creationTimestamp`
 * (the stage time) and `timestamp` (the request time), in whole seconds.
 */
import { goJsonMarshal, goQuote } from '@keel/apimachinery';
import { formatMicro, formatRFC3339Nano, formatSeconds } from './clock.js';
import type { AuditEvent, AuditVersion, EventUser } from './types.js';

export function wireEvent(ev: AuditEvent, version: AuditVersion): Record<string, unknown> {
  const beta = version === 'audit.k8s.io/v1beta1';
  const out: Record<string, unknown> = { kind: 'Event', apiVersion: version };
  if (beta) out['metadata'] = { creationTimestamp: formatSeconds(ev.stageTimestamp) };
  out['level'] = ev.level;
  if (beta) out['timestamp'] = formatSeconds(ev.requestReceivedTimestamp);
  out['auditID'] = ev.auditID;
  out['stage'] = ev.stage;
  out['requestURI'] = ev.requestURI;
  out['verb'] = ev.verb;
  out['user'] = ev.user;
  if (ev.impersonatedUser) out['impersonatedUser'] = ev.impersonatedUser;
  if (ev.sourceIPs && ev.sourceIPs.length > 0) out['sourceIPs'] = ev.sourceIPs;
  if (ev.userAgent) out['userAgent'] = ev.userAgent;
  if (ev.objectRef) out['objectRef'] = ev.objectRef;
  if (ev.responseStatus) out['responseStatus'] = ev.responseStatus;
  if (ev.requestObject !== undefined) out['requestObject'] = ev.requestObject;
  if (ev.responseObject !== undefined) out['responseObject'] = ev.responseObject;
  out['requestReceivedTimestamp'] = formatMicro(ev.requestReceivedTimestamp);
  out['stageTimestamp'] = formatMicro(ev.stageTimestamp);
  if (ev.annotations && Object.keys(ev.annotations).length > 0) out['annotations'] = ev.annotations;
  return out;
}

/** One event as JSON, without the trailing newline. */
export function encodeEvent(ev: AuditEvent, version: AuditVersion): string {
  return goJsonMarshal(wireEvent(ev, version));
}

/** The body a webhook receives. */
export function encodeEventList(events: readonly AuditEvent[], version: AuditVersion): string {
  return goJsonMarshal({
    kind: 'EventList',
    apiVersion: version,
    metadata: {},
    items: events.map((e) => wireEvent(e, version)),
  });
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
