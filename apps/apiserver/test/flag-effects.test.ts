import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagEffectsProblems } from '@keel/testing';
import { describe, expect, it } from 'vitest';
import { apiServerCommand } from '../src/command.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('keel-apiserver flag effects', () => {
  it('has an entry per flag, tests that set each acting flag, and refuses each refused one', () => {
    expect(flagEffectsProblems(() => apiServerCommand(), root)).toEqual([]);
  });
});
