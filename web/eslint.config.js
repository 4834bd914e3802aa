// Lint rules that keep the web/ layout of STYLE.md: Blueprint only inside src/components/,
// no imports between features, hooks rules. Generated code is not linted.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const blueprintOnlyInComponents = {
  name: '@blueprintjs/core',
  message: 'Import Blueprint through our wrappers in src/components/.',
};

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', '**/__generated__/', 'e2e/artifacts/', 'playwright-report/', 'test-results/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [blueprintOnlyInComponents] }],
    },
  },
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [blueprintOnlyInComponents],
          // '../other-feature/…' from inside a feature; '../../lib' and '../../components' stay allowed.
          patterns: [
            { regex: '^\\.\\./(?!\\.\\./)', message: 'Features do not import each other: move shared code to lib/ or components/.' },
          ],
        },
      ],
    },
  },
  { files: ['src/components/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['*.{js,ts}', 'e2e/**/*.ts'], languageOptions: { globals: globals.node } },
);
