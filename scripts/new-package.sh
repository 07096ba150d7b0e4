#!/usr/bin/env bash
# Scaffolds packages/<name> with the exports map every Keel package uses.
set -euo pipefail
name=$1; shift
dir=packages/$name
mkdir -p "$dir/src"
cat > "$dir/package.json" <<JSON
{
  "name": "@keel/$name",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "files": ["dist"],
  "exports": {
    ".": {
      "@keel/source": "./src/index.ts",
      "types": "./dist/index.d.ts",
      "default": "./dist/index.js"
    }
  },
  "scripts": { "build": "tsc -p tsconfig.build.json" },
  "dependencies": {}
}
JSON
cat > "$dir/tsconfig.build.json" <<JSON
{
  "extends": "../../tsconfig.build.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist" },
  "include": ["src"],
  "exclude": ["src/**/*.test.ts", "src/testing/**"]
}
JSON
[ -f "$dir/src/index.ts" ] || echo "export {};" > "$dir/src/index.ts"
