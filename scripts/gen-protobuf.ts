/**
 * Vendors the Kubernetes `generated.proto` files Keel serves into packages/protobuf/proto/
 * (comments stripped, a header naming their origin), and writes
 * packages/protobuf/src/schema.generated.ts: the protobufjs descriptor of those files and, from
 * the Go types' struct tags, what the .proto files do not say: each field's JSON name, whether
 * it is inlined, and whether its zero value is left out of JSON (omitempty on a non-pointer).
 *
 *   pnpm gen:protobuf [/work/.mirror/kubernetes+api/repo] [/work/.mirror/kubernetes+apimachinery/repo]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..', 'packages', 'protobuf');
const apiRepo = process.argv[2] ?? '/work/.mirror/kubernetes+api/repo';
const machineryRepo = process.argv[3] ?? '/work/.mirror/kubernetes+apimachinery/repo';

/** Every group/version Keel serves (or reads, for reviews and admission), plus what they import. */
const API_DIRS = [
  'core/v1',
  'apps/v1',
  'batch/v1',
  'autoscaling/v1',
  'coordination/v1',
  'coordination/v1beta1',
  'events/v1',
  'events/v1beta1',
  'rbac/v1',
  'storage/v1',
  'policy/v1',
  'policy/v1beta1',
  'scheduling/v1',
  'discovery/v1',
  'admissionregistration/v1',
  'authentication/v1',
  'authentication/v1beta1',
  'authentication/v1alpha1',
  'authorization/v1',
  'authorization/v1beta1',
  'flowcontrol/v1',
  'flowcontrol/v1beta1',
  'flowcontrol/v1beta2',
  'flowcontrol/v1beta3',
  'networking/v1',
];
const MACHINERY_DIRS = [
  'pkg/runtime/schema',
  'pkg/runtime',
  'pkg/api/resource',
  'pkg/util/intstr',
  'pkg/apis/meta/v1',
];

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', repo, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

const HEADER = (origin: string, commit: string) =>
  `// Vendored from ${origin} at ${commit.slice(0, 12)} (generated.proto, comments removed).\n` +
  `// Copyright The Kubernetes Authors. Licensed under the Apache License, Version 2.0.\n`;

function stripComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.replace(/\s*\/\/.*$/, ''))
    .filter((l) => l.trim() !== '')
    .join('\n');
}

interface Source {
  readonly importPath: string;
  readonly repo: string;
  readonly dir: string;
}

const sources: Source[] = [
  ...MACHINERY_DIRS.map((dir) => ({
    importPath: `k8s.io/apimachinery/${dir}/generated.proto`,
    repo: machineryRepo,
    dir,
  })),
  ...API_DIRS.map((dir) => ({ importPath: `k8s.io/api/${dir}/generated.proto`, repo: apiRepo, dir })),
];

const root = new protobuf.Root();
/** Go struct tags, by proto message full name then proto field name. */
const fields: Record<string, Record<string, [json: string, flags: number]>> = {};
const INLINE = 1;
const DROP_ZERO = 2;
/** Messages that are Go slices (`type ExtraValue []string`): JSON arrays of their `items`. */
const lists: string[] = [];

for (let i = 0; i < sources.length; i++) {
  const src = sources[i] as Source;
  const commit = git(src.repo, 'rev-parse', 'HEAD').trim();
  const text = stripComments(git(src.repo, 'show', `HEAD:${src.dir}/generated.proto`));
  // What a file imports comes along (batch/v1 imports a scheduling alpha version, for one).
  for (const imp of text.matchAll(/^import "k8s\.io\/(api|apimachinery)\/(.+)\/generated\.proto";/gm)) {
    const importPath = imp[0].slice(8, -2);
    if (sources.some((s) => s.importPath === importPath)) continue;
    sources.push({ importPath, repo: imp[1] === 'api' ? apiRepo : machineryRepo, dir: imp[2] ?? '' });
  }
  const origin = src.repo.includes('apimachinery') ? 'k8s.io/apimachinery' : 'k8s.io/api';
  const out = join(pkg, 'proto', src.importPath);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, HEADER(`${origin}/${src.dir}`, commit) + text + '\n');
  const parsed = protobuf.parse(text, root, { keepCase: true });
  const protoPkg = parsed.package ?? '';

  const goFiles = git(src.repo, 'ls-tree', '--name-only', 'HEAD', `${src.dir}/`)
    .split('\n')
    .filter((f) => f.endsWith('.go') && !/(_test|generated[^/]*|zz_[^/]*)\.go$/.test(f));
  for (const file of goFiles) {
    const go = git(src.repo, 'show', `HEAD:${file}`);
    for (const m of go.matchAll(/^type (\w+) \[\](\w+)\s*$/gm)) lists.push(`${protoPkg}.${m[1]}`);
    for (const m of go.matchAll(/^type (\w+) struct \{\n([\s\S]*?)\n\}/gm)) {
      const table: Record<string, [string, number]> = {};
      for (const raw of (m[2] ?? '').split('\n')) {
        const line = raw.trim();
        if (line.startsWith('//')) continue;
        const named = /^(\w+)\s+([^\s`]+)\s+`([^`]*)`/.exec(line);
        const embedded = named ? undefined : /^([\w.*]+)\s+`([^`]*)`/.exec(line);
        const goType = named ? (named[2] ?? '') : (embedded?.[1] ?? '');
        const tag = named ? named[3] : embedded?.[2];
        if (tag === undefined) continue;
        const pb = /protobuf:"([^"]*)"/.exec(tag)?.[1];
        const json = /json:"([^"]*)"/.exec(tag)?.[1];
        if (pb === undefined || json === undefined) continue;
        const protoName = /(?:^|,)name=(\w+)/.exec(pb)?.[1];
        if (protoName === undefined) continue;
        const [jsonName = '', ...opts] = json.split(',');
        let flags = 0;
        if (jsonName === '' && (embedded !== null || opts.includes('inline'))) flags |= INLINE;
        if (opts.includes('omitempty') && !goType.startsWith('*')) flags |= DROP_ZERO;
        if (jsonName !== protoName || flags !== 0) table[protoName] = [jsonName, flags];
      }
      if (Object.keys(table).length > 0) fields[`${protoPkg}.${m[1]}`] = table;
    }
  }
}
root.resolveAll();

const descriptor = JSON.stringify(root.toJSON({ keepComments: false }));
const generated = `// Generated by scripts/gen-protobuf.ts from packages/protobuf/proto/ and the Go types' struct
// tags (k8s.io/api, k8s.io/apimachinery; Apache-2.0). Do not edit.

/** protobufjs descriptor (Root.toJSON) of the vendored .proto files, parsed only on first use. */
export const DESCRIPTOR = ${JSON.stringify(descriptor)};

/** Message → proto field → [JSON name, flags (1 inline, 2 zero left out)], where not the plain default. */
export const JSON_FIELDS = ${JSON.stringify(JSON.stringify(fields))};

/** Messages that are Go slices, written in JSON as the array of their items. */
export const LIST_MESSAGES: readonly string[] = ${JSON.stringify([...new Set(lists)].filter((l) => root.lookup(l) !== null).sort())};
`;
writeFileSync(join(pkg, 'src', 'schema.generated.ts'), generated);
console.log(`wrote ${sources.length} .proto files, ${descriptor.length} descriptor bytes`);
