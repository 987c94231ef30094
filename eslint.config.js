import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';

// Console features never import one another (architecture.md rule 1); shared pieces live in components/ or lib/.
const features = fs.readdirSync('src/console/features');
const others = (feature) => features.filter((f) => f !== feature).join('|');

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      'node_modules',
      'test-results',
      'playwright-report',
      'coverage',
      'src/console/routeTree.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `import { type X } from 'm'` still loads m (verbatimModuleSyntax keeps `import 'm'`): for the contract that
      // is zod and every schema in the console's first download.
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  // Tests read JSON answers of many shapes.
  {
    files: ['**/*.test.ts', 'src/server/test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Import direction (architecture.md rule 1): shared imports only zod; server and console never import each other.
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'react', 'react-*', '**/server/**', '**/console/**'],
              message: 'src/shared imports only zod.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/console/**'], message: 'The server never imports the console.' }] },
      ],
    },
  },
  // Layers (architecture.md rule 3): repositories, dialects and migrations import nothing from domain/.
  {
    files: ['src/server/storage/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/console/**'], message: 'The server never imports the console.' },
            {
              group: ['**/domain/**'],
              message: 'Storage imports nothing from domain/: move what it needs down (storage/, lib/ or shared/).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/console/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', 'node:*'], message: 'The console never imports the server.' }] },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`src/console/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Relative imports climb to the features folder (../../other/...) or name it (features/other/...).
              regex: `(^|/)features/(${others(feature)})(/|$)|^(\\.\\./)+(${others(feature)})(/|$)`,
              message:
                'A console feature does not import another feature: move the shared piece to components/ or lib/.',
            },
            { group: ['**/server/**', 'node:*'], message: 'The console never imports the server.' },
          ],
        },
      ],
    },
  })),
);
