import type { z } from 'zod';
import { ConfigFileError } from './read.js';

function pathString(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path)
    out += typeof part === 'number' ? `[${part}]` : out === '' ? String(part) : `.${String(part)}`;
  return out || '(top level)';
}

function got(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'a mapping';
  return `${typeof input} ${JSON.stringify(input)}`;
}

const EXPECTED: Readonly<Record<string, string>> = {
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
};

function expected(name: string): string {
  return EXPECTED[name] ?? name;
}

/**
 * One "field: what was expected, got what" per zod issue (parse with `reportInput: true` so the
 * "got" part is known). Custom messages set on a schema are kept as they are.
 */
export function describeZodIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    const at = pathString(issue.path);
    switch (issue.code) {
      case 'unrecognized_keys':
        return issue.keys.map((k) => `${pathString([...issue.path, k])}: unknown field`);
      case 'invalid_value':
        if (issue.input === undefined) return [`${at}: required`];
        return [
          `${at}: expected one of ${issue.values.map((v) => String(v)).join(', ')}, got ${got(issue.input)}`,
        ];
      case 'invalid_type':
        return [
          issue.input === undefined
            ? `${at}: required`
            : `${at}: expected ${expected(issue.expected)}, got ${got(issue.input)}`,
        ];
      default:
        return [`${at}: ${issue.message}`];
    }
  });
}

/**
 * Validates `doc` against `schema`; on failure throws one ConfigFileError line,
 * `<where>: <field>: <problem>; ...`, where `where` names the file (and the part of it).
 */
export function parseConfig<S extends z.ZodType>(schema: S, doc: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(doc, { reportInput: true });
  if (!parsed.success)
    throw new ConfigFileError(`${where}: ${describeZodIssues(parsed.error.issues).join('; ')}`);
  return parsed.data;
}
