import { isProtobufValue } from '../media/encoding-backend.js';
import type { RedisClient } from './connection.js';

/**
 * Values are JSON text (UTF-8 in Redis) or protobuf (`k8s\0` + bytes, carried above as a latin1
 * string): Redis must hold the protobuf bytes themselves, so they are sent as a Buffer and every
 * reply that carries values is read as bytes and decoded by its first four bytes.
 */

export function toRedisValue(value: string): string | Buffer {
  return isProtobufValue(value) ? Buffer.from(value, 'latin1') : value;
}

function isProtobufBytes(b: Buffer): boolean {
  return b.length >= 4 && b[0] === 0x6b && b[1] === 0x38 && b[2] === 0x73 && b[3] === 0;
}

/** A value read as bytes, as the string the layers above carry. */
export function fromRedisValue(b: Buffer): string {
  return b.toString(isProtobufBytes(b) ? 'latin1' : 'utf8');
}

/** A key, id or status read as bytes (always UTF-8 text). */
export function text(b: unknown): string {
  return Buffer.isBuffer(b) ? b.toString('utf8') : String(b);
}

export type BufferCommandName = 'HMGET' | 'EVALSHA' | 'EVAL' | 'XREAD';
type BufferCommand = (...args: (string | number | Buffer)[]) => Promise<unknown>;

/**
 * Sends one command and answers bulk replies as Buffers (integers stay numbers). It goes through
 * the command's own `<name>Buffer` method: ioredis's auto-pipelining mis-sends `callBuffer`
 * (it does not put the command name back in front of the arguments).
 */
export function commandBuffer(
  client: RedisClient,
  name: BufferCommandName,
  args: readonly (string | number | Buffer)[],
): Promise<unknown> {
  const method = (client as unknown as Record<string, BufferCommand>)[BUFFER_METHODS[name]]!;
  // ioredis takes its arguments as a rest parameter, so it copies them itself.
  return method.apply(client, args as (string | number | Buffer)[]);
}

const BUFFER_METHODS: Readonly<Record<BufferCommandName, string>> = {
  HMGET: 'hmgetBuffer',
  EVALSHA: 'evalshaBuffer',
  EVAL: 'evalBuffer',
  XREAD: 'xreadBuffer',
};
