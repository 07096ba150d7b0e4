import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      '.bench/**',
      'eslint.config.js',
      // Written for a user's project: they import the published `keel` package and Jest's globals.
      'docs/examples/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Build scripts in plain JavaScript are checked without a tsconfig of their own.
        projectService: { allowDefaultProject: ['apps/*/scripts/*.mjs', 'deploy/compose/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@keel/*/src/*', '@keel/*/src'],
              message: 'Import a package through its public index.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@keel/*/src/*', '@keel/*/src'],
              message: 'Import a package through its public index.',
            },
            {
              group: ['**/apps/**', '@keel/apiserver', '@keel/scheduler'],
              message: 'Packages never import apps.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'scripts/**', 'apps/*/test/**'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
);
