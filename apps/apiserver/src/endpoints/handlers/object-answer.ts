import type { ListResult } from '@keel/storage';
import type { InternalObject } from '../../registry/resource-view.js';
import { writeResourceObject } from '../respond.js';
import { tableForList, tableForObject } from '../table.js';
import { listBody } from './list-body.js';
import type { HandlerRequest, RequestScope } from './scope.js';
import { tableOptions } from './table-output.js';

/**
 * A handler's answer of one stored object (get, and what create, update, patch and delete
 * return), as transformResponseObject writes it: the object, or its Table when the client asked
 * for server-side printing (kubectl's human output asks it of reads; any write may), in the
 * negotiated encoding.
 */
export function writeObjectAnswer<I extends InternalObject>(
  scope: RequestScope<I>,
  r: HandlerRequest,
  code: number,
  obj: I,
): void {
  const table = tableOptions(r);
  writeResourceObject(
    r.req,
    r.res,
    r.url,
    code,
    table ? tableForObject(scope.view, obj, table) : scope.view.encode(obj),
  );
}

/** A list's items as the answer (deletecollection's deleted objects), or their Table. */
export function writeListAnswer<I extends InternalObject>(
  scope: RequestScope<I>,
  r: HandlerRequest,
  result: ListResult<I>,
): void {
  const table = tableOptions(r);
  const meta = { resourceVersion: result.resourceVersion };
  writeResourceObject(
    r.req,
    r.res,
    r.url,
    200,
    table ? tableForList(scope.view, result.items, meta, table) : listBody(scope.view, result),
  );
}
