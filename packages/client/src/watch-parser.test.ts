import { describe, expect, it } from 'vitest';
import { parseWatchStream, type WatchEvent } from './index.js';

const enc = new TextEncoder();

/** What JSON.parse says about `text` (the message varies between Node versions). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('valid JSON');
}

async function* chunks(parts: readonly (Uint8Array | string)[]): AsyncGenerator<Uint8Array | string> {
  for (const p of parts) {
    await Promise.resolve();
    yield p;
  }
}

async function collect(parts: readonly (Uint8Array | string)[]): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  for await (const ev of parseWatchStream(chunks(parts))) out.push(ev);
  return out;
}

/** Splits `bytes` at the given offsets. */
function split(bytes: Uint8Array, at: readonly number[]): Uint8Array[] {
  const cuts = [0, ...at, bytes.length];
  return cuts.slice(1).map((end, i) => bytes.slice(cuts[i], end));
}

const added = {
  type: 'ADDED',
  object: { kind: 'Event', metadata: { name: 'é-1', resourceVersion: '5' }, note: 'naïve ✓' },
};
const bookmark = { type: 'BOOKMARK', object: { kind: 'Event', metadata: { resourceVersion: '9' } } };
const expired = {
  type: 'ERROR',
  object: {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'too old resource version: 1 (5)',
    reason: 'Expired',
    code: 410,
  },
};
const stream = enc.encode([added, bookmark, expired].map((e) => `${JSON.stringify(e)}\n`).join(''));

describe('parseWatchStream', () => {
  it('gives the same events for every single split point (including inside UTF-8 sequences)', async () => {
    for (let i = 1; i < stream.length; i++) {
      expect(await collect(split(stream, [i]))).toEqual([added, bookmark, expired]);
    }
  });

  it('gives the same events when every byte is its own chunk', async () => {
    expect(
      await collect(
        split(
          stream,
          Array.from({ length: stream.length - 1 }, (_, i) => i + 1),
        ),
      ),
    ).toEqual([added, bookmark, expired]);
  });

  it.each<[string, (string | Uint8Array)[], WatchEvent[]]>([
    ['text chunks and blank lines', ['\n', `${JSON.stringify(added)}\n\n`, '\r\n'], [added as WatchEvent]],
    ['a last event without its newline', [JSON.stringify(bookmark)], [bookmark as WatchEvent]],
    [
      'several events in one chunk',
      [`${JSON.stringify(added)}\n${JSON.stringify(added)}\n`],
      [added, added] as WatchEvent[],
    ],
    ['an empty stream', [], []],
  ])('%s', async (_what, parts, want) => {
    expect(await collect(parts)).toEqual(want);
  });

  const decodeError = (why: string) => ({
    type: 'ERROR',
    object: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `unable to decode an event from the watch stream: ${why}`,
      reason: 'InternalError',
      code: 500,
    },
  });

  it.each([
    ['a line that is not JSON', '{"type":"ADDED",', jsonError('{"type":"ADDED",')],
    ['an unknown type', '{"type":"CHANGED","object":{}}', 'got invalid watch event type: "CHANGED"'],
    ['no object', '{"type":"ADDED"}', 'the ADDED event has no object'],
    ['not an object', '42', 'an event must be a JSON object'],
  ])('%s ends the stream with one ERROR event', async (_what, line, why) => {
    const events = await collect([`${JSON.stringify(added)}\n${line}\n${JSON.stringify(added)}\n`]);
    expect(events).toEqual([added, decodeError(why)]);
  });

  it('an ERROR event whose object is not a Status still carries a Status', async () => {
    const [ev] = await collect(['{"type":"ERROR","object":{"oops":1}}\n']);
    expect(ev).toEqual({
      type: 'ERROR',
      object: expect.objectContaining({
        kind: 'Status',
        status: 'Failure',
        code: 500,
        message: 'unrecognized error object in the watch stream: {"oops":1}',
      }) as unknown,
    });
  });
});
