/**
 * List and watch query options: decoding (400 on malformed values), ListOptions validation
 * (422 `ListOptions.meta.k8s.io "" is invalid: ...`), field-label conversion, the named-object
 * field selector check, and the storage-level checks of `continue` and `resourceVersion` (400).
 * The order of the checks is the real server's: decode, default, validate, convert, storage.
 */
import { decodeContinue, type DecodedContinue } from './continue-token.js';
import { badRequest, invalid } from './errors.js';
import { fieldErrorString, forbiddenField, invalidValue, notSupported, type FieldError } from './field-errors.js';
import {
  defaultMetaFieldLabels,
  oneTermEqualFieldSelector,
  parseFieldSelector,
  type FieldLabelConverter,
  type FieldSelector,
} from './field-selector.js';
import { GoNumError, parseGoUint64 } from './go-format.js';
import type { LabelSelector } from './label-selector.js';
import { parseLabelSelector } from './label-selector-parser.js';
import { queryBool, queryInt64, queryOptionalBool, queryOptionalInt64, queryString } from './query-params.js';

export interface ListOptions {
  readonly labelSelector: LabelSelector;
  readonly fieldSelector: FieldSelector;
  readonly watch: boolean;
  readonly allowWatchBookmarks: boolean;
  readonly resourceVersion: string;
  /** After validation: '', 'Exact' or 'NotOlderThan'. */
  readonly resourceVersionMatch: string;
  readonly timeoutSeconds: number | undefined;
  /** 0 means no limit. */
  readonly limit: number;
  readonly continue: string;
  readonly sendInitialEvents: boolean | undefined;
  /** `resourceVersion` as a number; 0 when unset or "0". */
  readonly resourceVersionNumber: number;
  /** The decoded `continue` token (lists only). */
  readonly continueToken: DecodedContinue | undefined;
}

export interface ListOptionsConfig {
  /** The WatchList feature (sendInitialEvents); on by default. */
  readonly watchListEnabled?: boolean;
  /** The resource's field-label conversion; the default accepts metadata.name/namespace only. */
  readonly convertFieldLabel?: FieldLabelConverter;
  /** Set when the request names one object (its field selector must agree). */
  readonly name?: string;
  /** Prefixed to the decoded continue start key. */
  readonly keyPrefix?: string;
}

const listOptionsKind = { group: 'meta.k8s.io', kind: 'ListOptions' };

/** Go's ValidateListOptions: the 422 rules for resourceVersionMatch and sendInitialEvents. */
export function validateListOptions(
  o: Pick<ListOptions, 'watch' | 'resourceVersion' | 'resourceVersionMatch' | 'continue' | 'sendInitialEvents'>,
  watchListEnabled = true,
): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (o.watch) {
    if (o.sendInitialEvents !== undefined) {
      if (match !== 'NotOlderThan') {
        errs.push(forbiddenField('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      }
      if (!watchListEnabled) {
        errs.push(forbiddenField('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
      }
    }
    if (match) {
      if (o.sendInitialEvents === undefined) {
        errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      if (o.continue) errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
    return errs;
  }
  if (match) {
    if (!o.resourceVersion) {
      errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (o.continue) errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && o.resourceVersion === '0') {
      errs.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (o.sendInitialEvents !== undefined) errs.push(forbiddenField('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

/**
 * The storage layer's resourceVersion parse: "" and "0" are 0, anything else must be a uint64;
 * failures are a 400 `invalid resource version: resourceVersion: Invalid value: ...`.
 */
export function parseResourceVersion(rv: string): number {
  if (rv === '' || rv === '0') return 0;
  try {
    return Number(parseGoUint64(rv));
  } catch (err) {
    if (!(err instanceof GoNumError)) throw err;
    throw badRequest(`invalid resource version: ${fieldErrorString(invalidValue('resourceVersion', rv, err.message))}`);
  }
}

/** Decodes and checks list/watch query options; every failure is a StatusError. */
export function parseListOptions(params: URLSearchParams, config: ListOptionsConfig = {}): ListOptions {
  const watchListEnabled = config.watchListEnabled ?? true;
  // Decoding, in the order of Go's generated conversion: scalars first, then the selectors.
  const watch = queryBool(params, 'watch');
  const resourceVersion = queryString(params, 'resourceVersion');
  let resourceVersionMatch = queryString(params, 'resourceVersionMatch');
  const timeoutSeconds = queryOptionalInt64(params, 'timeoutSeconds');
  const limit = queryInt64(params, 'limit');
  let sendInitialEvents = queryOptionalBool(params, 'sendInitialEvents');
  const labelSelector = parseLabelSelector(queryString(params, 'labelSelector'));
  let fieldSelector = parseFieldSelector(queryString(params, 'fieldSelector'));
  const cont = queryString(params, 'continue');

  // With WatchList, a watch from "" or "0" without its own choice streams initial events.
  if (watchListEnabled && watch && sendInitialEvents === undefined && !resourceVersionMatch && (resourceVersion === '' || resourceVersion === '0')) {
    sendInitialEvents = true;
    resourceVersionMatch = 'NotOlderThan';
  }
  const errs = validateListOptions({ watch, resourceVersion, resourceVersionMatch, continue: cont, sendInitialEvents }, watchListEnabled);
  if (errs.length > 0) throw invalid(listOptionsKind, '', errs);

  fieldSelector = fieldSelector.transform(config.convertFieldLabel ?? defaultMetaFieldLabels);
  if (config.name !== undefined) {
    if (!fieldSelector.isEmpty()) {
      if (fieldSelector.requiresExactMatch('metadata.name') !== config.name) {
        throw badRequest("fieldSelector metadata.name doesn't match requested name");
      }
    } else {
      fieldSelector = oneTermEqualFieldSelector('metadata.name', config.name);
    }
  }

  let continueToken: DecodedContinue | undefined;
  let resourceVersionNumber = 0;
  if (!watch && cont) {
    continueToken = decodeContinue(cont, config.keyPrefix ?? '');
    if (resourceVersion !== '' && resourceVersion !== '0') {
      throw badRequest('specifying resource version is not allowed when using continue');
    }
  } else {
    resourceVersionNumber = parseResourceVersion(resourceVersion);
  }
  return {
    labelSelector,
    fieldSelector,
    watch,
    allowWatchBookmarks: queryBool(params, 'allowWatchBookmarks'),
    resourceVersion,
    resourceVersionMatch,
    timeoutSeconds,
    limit,
    continue: cont,
    sendInitialEvents,
    resourceVersionNumber,
    continueToken,
  };
}
