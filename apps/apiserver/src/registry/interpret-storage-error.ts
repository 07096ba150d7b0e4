import {
  alreadyExists,
  badRequest,
  conflict,
  conflictModified,
  expired,
  notFound,
  serviceUnavailable,
  timeout,
  tooLargeResourceVersion,
  type GroupResource,
} from '@keel/apimachinery';
import { isStorageError } from '@keel/storage';

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/**
 * Translates storage errors into API errors at the registry boundary (kube's
 * storage/errors.Interpret*Error); anything else passes through unchanged.
 */
export function interpretStorageError(
  err: unknown,
  qr: GroupResource,
  name: string,
  op: 'list' | 'watch' | 'other' = 'other',
): unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'KeyNotFound':
      return notFound(qr, name);
    case 'KeyExists':
      return alreadyExists(qr, name);
    case 'Conflict':
      // A storage precondition (uid, resourceVersion) says which one failed; anything else is
      // the optimistic-lock conflict.
      return err.message.startsWith('Precondition failed')
        ? conflict(qr, name, err.message)
        : conflictModified(qr, name);
    case 'Expired':
      if (err.continueKey !== undefined) return expired(CONTINUE_EXPIRED, { continue: err.continueKey });
      if (op === 'watch') {
        return expired(
          `too old resource version: ${err.resourceVersion ?? ''} (${err.oldestResourceVersion ?? ''})`,
        );
      }
      return expired('The resourceVersion for the provided list is too old.');
    case 'TooLargeResourceVersion':
      return tooLargeResourceVersion(
        BigInt(err.resourceVersion ?? '0'),
        BigInt(err.currentResourceVersion ?? '0'),
      );
    case 'Unreachable':
      return serviceUnavailable(`storage is unreachable: ${err.message}`, 1);
    case 'Timeout':
      return timeout(`storage did not answer in time: ${err.message}`, 1);
    case 'InvalidContinue':
      return badRequest(`invalid continue token: ${err.message}`);
    case 'InvalidObject':
      return badRequest(err.message);
  }
}
