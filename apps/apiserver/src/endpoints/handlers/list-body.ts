import { parseListOptions, supportedFieldLabels, type ListOptions } from '@keel/apimachinery';
import type { ListResult } from '@keel/storage';
import { listMember } from '../../registry/encoded-items.js';
import type { ListQuery } from '../../registry/generic-store.js';
import { apiVersionOf, type InternalObject, type ResourceView } from '../../registry/resource-view.js';
import type { HandlerRequest, RequestScope } from './scope.js';

/** Parses and validates list/watch query parameters against the view's field labels. */
export function listOptions(scope: RequestScope, { url, info }: HandlerRequest): ListOptions {
  const { view } = scope;
  return parseListOptions(url.searchParams, {
    watchListEnabled: scope.watchListEnabled,
    convertFieldLabel: view.convertFieldLabel ?? supportedFieldLabels(view.fieldLabels),
    ...(info.name !== '' ? { name: info.name } : {}),
  });
}

export function listQuery(o: ListOptions): ListQuery {
  return {
    labelSelector: o.labelSelector,
    fieldSelector: o.fieldSelector,
    limit: o.limit,
    continue: o.continue,
    resourceVersion: o.resourceVersion,
    resourceVersionMatch: o.resourceVersionMatch,
  };
}

/** The `<Kind>List` body; items carry no kind/apiVersion, as the real server's built-in lists. */
export function listBody<I extends InternalObject>(
  view: ResourceView<I>,
  result: ListResult<I>,
): Record<string, unknown> {
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continueKey !== undefined) metadata['continue'] = result.continueKey;
  if (result.remainingItemCount !== undefined) metadata['remainingItemCount'] = result.remainingItemCount;
  return {
    kind: view.listKind,
    apiVersion: apiVersionOf(view),
    metadata,
    items: result.items.map((item) => listMember(view, item)),
  };
}
