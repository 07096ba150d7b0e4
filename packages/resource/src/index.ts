export {
  str,
  int32,
  int64,
  bool,
  time,
  microTime,
  quantity,
  bytes,
  raw,
  stringMap,
  resourceList,
  named,
  struct,
  list,
  map,
  ptr,
  always,
  isEmptyValue,
  type StructSpec,
  type WireSpec,
} from './wire-spec.js';
export {
  decodeWire,
  jsonKind,
  WireDecodeError,
  type DecodeOptions,
  type WireDecoded,
} from './wire-decode.js';
export { encodeStruct, encodeValue } from './wire-encode.js';
export {
  objectMetaSpec,
  objectReferenceSpec,
  type ObjectMeta,
  type OwnerReference,
  type ManagedFieldsEntry,
  type ObjectReference,
} from './object-meta.js';
export {
  checkTypeMeta,
  decodeTyped,
  cannotHandle,
  externalPackage,
  groupVersionString,
  type GroupVersion,
  type KindTarget,
  type Scheme,
} from './type-meta.js';
export {
  validateCoreMeta,
  validateCoreMetaUpdate,
  kubeFinalizerErrors,
  beforeCreate,
  beforeUpdate,
} from './meta-validation.js';
export { column, nameColumn, ageColumn, humanDuration, since, type TableColumn } from './table-util.js';
export {
  statusSubresourceView,
  wireCodec,
  type ResourceView,
  type StatusHooks,
  type StoredObject,
  type Decoded,
  type Codec,
} from './view.js';
export {
  parseQuantity,
  formatQuantity,
  canonicalQuantity,
  compareQuantity,
  quantityMilliValue,
  quantityValue,
  addQuantity,
  subtractQuantity,
  quantityOfUnits,
  QuantityParseError,
  quantityFormatError,
  quantitySuffixError,
  type Quantity,
  type QuantityFormat,
} from './quantity.js';
export { goBase64StdDecode, Base64Error } from './go-base64-std.js';
export { sameJson } from './same-json.js';
export { keepFrom } from './keep.js';
