// @ts-check
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The dependency rules (README.md, "The folders"): data flows one way (shared/api ← sandbox,
 * shared ← core ← electron/web/cli; the renderer reaches the app only through the Bridge). Each folder lists what it
 * must not import; a crossing is a lint error, not a review comment.
 */
const ours = (dir) => [`**/${dir}`, `**/${dir}/**`];
const forbid = (message, ...dirs) => ({ group: dirs.flatMap(ours), message });
const electronModule = { name: 'electron', message: 'Only electron/ may import electron.' };
const nodeBuiltins = { group: ['node:*'], message: 'This code also runs in the browser.' };

const boundaries = {
  shared: [
    forbid('shared/ imports nothing of ours.', 'sandbox', 'core', 'electron', 'web', 'renderer'),
    nodeBuiltins,
  ],
  // The API model stands alone: the sandbox and the app share it, and it knows neither.
  'shared/api': [
    forbid('shared/api/ is the API model alone: nothing of the app.', 'app', 'sandbox', 'core'),
    forbid('shared/api/ is the API model alone.', 'electron', 'web', 'renderer'),
    nodeBuiltins,
  ],
  sandbox: [
    forbid('sandbox/ stands alone on shared/api/.', 'core', 'electron', 'web', 'renderer'),
    forbid("sandbox/ implements the API, not the app's contract.", 'shared/app'),
  ],
  core: [forbid('core/ imports only shared/.', 'sandbox', 'electron', 'web', 'renderer')],
  electron: [forbid('electron/ reaches the renderer only through the Bridge.', 'web', 'renderer')],
  web: [forbid('web/ imports core, shared and sandbox only.', 'electron', 'renderer')],
  cli: [forbid('cli/ imports core, shared and sandbox only.', 'electron', 'web', 'renderer')],
  renderer: [
    forbid('renderer/ talks only to the Bridge and shared/.', 'sandbox', 'core', 'electron', 'web'),
    nodeBuiltins,
  ],
};

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
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
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
  {
    files: ['renderer/**', 'tests/browser/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...Object.entries(boundaries).map(([dir, patterns]) => {
    const extra = dir === 'electron' ? [] : [electronModule];
    return {
      files: [`${dir}/**/*.ts`, `${dir}/**/*.svelte`, `${dir}/**/*.js`],
      rules: { 'no-restricted-imports': ['error', { paths: extra, patterns }] },
    };
  }),
);
