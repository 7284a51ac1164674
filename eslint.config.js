// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/**
 * The layers of DESIGN.md, enforced. Each layer gets one `no-restricted-imports` entry (ESLint
 * replaces, not merges, a rule configured twice for one file), so the globs below never overlap.
 * test/eslint-layers.test.ts proves each rule fires.
 */
const NODE_MODULES = builtinModules.flatMap((m) => [m, `node:${m}`]);
const ELECTRON = {
  group: ['electron', 'electron/*', 'electron-store'],
  message: 'Only the Electron shell (src/main/*.ts) and the preload import Electron.',
};
const NODE = { group: NODE_MODULES, message: 'This layer runs outside Node: no Node modules.' };
const MAIN = {
  group: ['**/main/**', '**/main'],
  message: 'Renderer and shared code never import main-process code; go through the contract.',
};
const RENDERER = { group: ['**/renderer/**'], message: 'Only the renderer imports renderer code.' };
const PRELOAD = { group: ['**/preload/**'], message: 'Nothing imports the preload.' };
const SANDBOX = {
  group: ['**/sandbox/**'],
  message: 'The app reaches the sandbox only over sockets (or its exported start function from main).',
};
const UI_AND_SERVERS = {
  group: ['react', 'react-dom', 'react-dom/*', 'zustand', 'zustand/*', 'ws', 'fastify', '@fastify/*'],
  message: 'src/shared is plain TypeScript shared by every process: no UI or server libraries.',
};

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'e2e/artifacts/**',
      'test-results/**',
      'playwright-report/**',
      'types/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },

  // src/shared: no platform at all.
  {
    files: ['src/shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ELECTRON, NODE, MAIN, RENDERER, PRELOAD, SANDBOX, UI_AND_SERVERS] },
      ],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'process',
        'Buffer',
        'require',
        '__dirname',
        'localStorage',
      ],
    },
  },

  // The renderer: the browser, React, the contract. Never main, never Node, never Electron.
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [ELECTRON, NODE, MAIN, PRELOAD, SANDBOX] }],
    },
  },

  // The preload: Electron and the contract's names only.
  {
    files: ['src/preload/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NODE, MAIN, RENDERER, SANDBOX] }] },
  },

  // Main below the shell (core/, browser-host/, ...) runs without Electron, and does not reach
  // back into the shell files that sit directly in src/main. Whether `../x` is a shell file depends
  // on how deep the importing file is, so there is one entry per depth.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`src/main/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ELECTRON,
            RENDERER,
            PRELOAD,
            {
              regex: `^(\\.\\./){${depth}}[^/]+$`,
              message: 'Files directly in src/main are the Electron shell; core code must not import them.',
            },
          ],
        },
      ],
    },
  })),

  // The product ships the product: main-process code reaches the test emulator only through the
  // demo's dynamic import (core/service/service-locator.ts) and type imports; tests and their
  // support files may start it. test/main-bundle.test.ts checks the built bundle the same way.
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/**/*.test.ts', 'src/main/**/*.test-support.ts', 'src/main/**/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/sandbox/**'],
              allowTypeImports: true,
              message:
                'Only the demo loads the emulator, through a dynamic import; main code may import its types.',
            },
          ],
        },
      ],
    },
  },

  // The Electron shell (files directly in src/main) may import Electron, but no UI code.
  {
    files: ['src/main/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [RENDERER, PRELOAD] }] },
  },

  // The sandbox and scripts: no Electron, no UI code.
  {
    files: ['sandbox/**/*.ts', 'scripts/**/*.{ts,mjs,js}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ELECTRON, RENDERER] }] },
  },

  // Cross-layer tests (test/) may wire renderer and main together, but never through Electron.
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ELECTRON] }] },
  },
);
