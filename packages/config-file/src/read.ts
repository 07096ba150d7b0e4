import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

/** A configuration file problem, worded as the one line a daemon exits with. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
}

/**
 * Reads a YAML or JSON file (YAML 1.2 is a superset of JSON, so one parser reads both).
 * `what` names the file's role in the error, e.g. "admission control config file".
 */
export function readConfigDocument(
  path: string,
  what: string,
): { readonly file: string; readonly doc: unknown } {
  const file = resolve(path);
  const fail = (problem: string) => new ConfigFileError(`${what} ${file}: ${problem}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw fail(`cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parse(text, { uniqueKeys: true });
  } catch (err) {
    // The library's message carries a multi-line code frame; its first line has the reason.
    throw fail(`not valid YAML or JSON: ${(err as Error).message.split('\n')[0] ?? ''}`);
  }
  if (doc === null || doc === undefined) throw fail('the file is empty');
  return { file, doc };
}
