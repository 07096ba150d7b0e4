import { Writable } from 'node:stream';
import { Duration, type ModuleLevel } from '@keel/flags';
import type { LoggingConfig } from '../options.js';

/** A stream that keeps what it is given; `writes` counts write calls to observe buffering. */
export class CaptureStream extends Writable {
  text = '';
  writes = 0;

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.text += chunk.toString('utf8');
    this.writes++;
    callback();
  }

  lines(): string[] {
    return this.text.split('\n').filter((l) => l !== '');
  }
}

export function loggingConfig(
  overrides: { verbosity?: number; vmodule?: readonly ModuleLevel[]; flushFrequency?: string } = {},
): LoggingConfig {
  return {
    flushFrequency: Duration.parse(overrides.flushFrequency ?? '5s'),
    verbosity: overrides.verbosity ?? 0,
    vmodule: overrides.vmodule ?? [],
    format: 'text',
  };
}

/**
 * The line after the one calling nextLine() in `file`: write `const line = nextLine(FILE);` right above
 * the logging call under test, so the expected file:line survives reformatting.
 */
export function nextLine(file: string): number {
  const stack = new Error().stack ?? '';
  const escaped = file.replace(/[.]/g, '\\.');
  const m = new RegExp(`[/\\\\]${escaped}:(\\d+):\\d+`).exec(stack);
  if (!m) throw new Error(`no frame for ${file} in ${stack}`);
  return Number(m[1]) + 1;
}
