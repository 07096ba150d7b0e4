import { badRequest } from '@keel/apimachinery';
import { loadProtobuf, PROTOBUF, ProtobufError } from '@keel/protobuf';

export { PROTOBUF };

/**
 * A request body in the Kubernetes protobuf encoding, as its JSON wire form with the envelope's
 * apiVersion and kind (the body then takes the JSON path: defaulting, strict field checks,
 * validation). Unknown fields are skipped, as Go's generated Unmarshal does. A body that is not
 * the envelope, or not decodable, is the real server's 400 for an unrecognized object.
 */
export async function decodeProtobufObject(body: Buffer, kind: string): Promise<Record<string, unknown>> {
  const pb = await loadProtobuf();
  try {
    return pb.decode(body);
  } catch (err) {
    const why = err instanceof ProtobufError ? err.message : String(err);
    throw badRequest(`the object provided is unrecognized (must be of type ${kind}): ${why}`);
  }
}
