// @ts-check
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * ESLint runs only over the Svelte components and rune modules (`*.svelte`, `*.svelte.ts`, all in
 * renderer/): eslint-plugin-svelte's rules need the markup, which oxlint does not parse. All other
 * files, the generic rules and the folder boundaries (docs/architecture.md, "The dependency rule")
 * are oxlint's, in .oxlintrc.json. ESLint over the whole tree took 45 s of CPU, nearly all of it
 * parsing; over these hundred files it is about 17 s, and oxlint's whole pass about one second. The
 * rules here are the ones ESLint ran over these files before (its own and typescript-eslint's
 * recommended sets, and ours below), so a component is held to what it was: with the markup in
 * view, no-unused-vars counts a name used only in the template as used, which oxlint cannot, so it
 * skips them. Components get the browser's globals only (before, Node's too): they run in the
 * window.
 */
export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-test/**',
      'release/**',
      'node_modules/**',
      'coverage/**',
      '**/.vite/**',
      'test-results/**',
      // svelte-check's TypeScript of the components, for tsgo (renderer/.svelte-check).
      '**/.svelte-check/**',
      // Every other file is oxlint's.
      '**/*.{js,mjs,cjs,ts,mts,cts,tsx}',
      '!**/*.svelte.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] },
    },
  },
);
