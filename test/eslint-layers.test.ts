import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules of eslint.config.js, run on small made-up files at real paths, so a broken
 * glob or pattern (which would silently allow everything) fails here.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter(
      (m) =>
        m.ruleId === 'no-restricted-imports' ||
        m.ruleId === '@typescript-eslint/no-restricted-imports' ||
        m.ruleId === 'no-restricted-globals',
    )
    .map((m) => m.message);
}

describe('lint keeps the layers apart', () => {
  it.each([
    ['src/shared/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/shared/x.ts', "import { readFile } from 'node:fs';\nexport const a = readFile;"],
    ['src/shared/x.ts', "import { readFile } from 'fs';\nexport const a = readFile;"],
    ['src/shared/x.ts', "import { useState } from 'react';\nexport const a = useState;"],
    ['src/shared/x.ts', "import { x } from '../main/core/app-core';\nexport const a = x;"],
    ['src/shared/x.ts', 'export const a = window.location;'],
    ['src/shared/x.ts', 'export const a = process.env;'],
    ['src/renderer/views/X.tsx', "import { x } from '../../main/core/app-core';\nexport const a = x;"],
    ['src/renderer/x.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;"],
    ['src/renderer/x.ts', "import { join } from 'node:path';\nexport const a = join;"],
    ['src/main/core/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/main/core/x.ts', "import Store from 'electron-store';\nexport const a = Store;"],
    [
      'src/main/core/x.ts',
      "import { createMainWindow } from '../main-window';\nexport const a = createMainWindow;",
    ],
    ['src/main/browser-host/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    [
      'src/main/core/service/x.ts',
      "import { createMainWindow } from '../../main-window';\nexport const a = createMainWindow;",
    ],
    ['src/main/core/service/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/main/index.ts', "import { App } from '../renderer/App';\nexport const a = App;"],
    ['src/preload/index.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;"],
    ['sandbox/x.ts', "import { app } from 'electron';\nexport const a = app;"],
    // The emulator is the demo's, loaded by a dynamic import only.
    [
      'src/main/core/service/x.ts',
      "import { startSandbox } from '../../../../sandbox/server';\nexport const a = startSandbox;",
    ],
    [
      'src/main/core/encounter/x.ts',
      "import { createWebhookSender } from '../../../../sandbox/webhook/sender';\nexport const a = createWebhookSender;",
    ],
  ])('refuses the import in %s: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['src/main/index.ts', "import { app } from 'electron';\nexport const a = app;"],
    ['src/main/core/x.ts', "import { readFile } from 'node:fs/promises';\nexport const a = readFile;"],
    ['src/main/core/service/x.ts', "import { systemClock } from '../ports';\nexport const a = systemClock;"],
    [
      'src/main/core/service/x.ts',
      "import type { Sandbox } from '../../../../sandbox/server';\nexport type A = Sandbox;",
    ],
    [
      'src/main/core/service/x.test.ts',
      "import { startSandbox } from '../../../../sandbox/server';\nexport const a = startSandbox;",
    ],
    [
      'src/main/core/x.ts',
      "import { settingsSchema } from '../../shared/settings';\nexport const a = settingsSchema;",
    ],
    [
      'src/main/browser-host/x.ts',
      "import { createAppCore } from '../core/app-core';\nexport const a = createAppCore;",
    ],
    ['src/preload/index.ts', "import { contextBridge } from 'electron';\nexport const a = contextBridge;"],
    [
      'src/renderer/x.ts',
      "import { settingsSchema } from '../shared/settings';\nexport const a = settingsSchema;",
    ],
  ])('allows the import in %s: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});
