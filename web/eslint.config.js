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

/** The no-cross-feature-imports rule for files at one depth under src/features. */
function featureImports(files, regex) {
  const message = 'Features do not import each other: move shared code to lib/ or components/.';
  return {
    files: [files],
    rules: { 'no-restricted-imports': ['error', { paths: [blueprintOnlyInComponents], patterns: [{ regex, message }] }] },
  };
}

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
  // Features do not import each other: '../other-feature/…' from a feature's own folder, or
  // '../../other-feature/…' from one of its subfolders ('../' there stays inside the feature).
  featureImports('src/features/*/*.{ts,tsx}', '^\\.\\./(?!\\.\\./)'),
  featureImports('src/features/*/*/**/*.{ts,tsx}', '^\\.\\./\\.\\./(?!\\.\\./)'),
  { files: ['src/components/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['*.{js,ts}', 'e2e/**/*.ts'], languageOptions: { globals: globals.node } },
);
