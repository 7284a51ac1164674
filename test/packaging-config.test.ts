import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { LinuxTargetHelper } from 'app-builder-lib/out/targets/LinuxTargetHelper';
import { generateAppRunScript } from 'app-builder-lib/out/targets/appimage/appImageUtil';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import type { Configuration } from 'electron-builder';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLanguageModelDir } from '../sandbox/processing/pocketsphinx';
import { RENDERER_CSP } from '../src/shared/csp';
import { VISIT_LINK_SCHEME } from '../src/shared/visit-link';
import { callOverSocket, startBrowserMode, type BrowserModeProcess } from './support/browser-mode-process';
import {
  attributeUrls,
  bareImports,
  findFile,
  moduleRelativeUrls,
  remoteSources,
} from './support/built-files';
import { icnsEntries, icoImages, isPng, pngSize } from './support/icon-files';
import { extractApp, packForLinux, writeStandInElectron, type PackedApp } from './support/packaged-app';

/**
 * Installable builds (electron-builder.yml). These machines cannot download Electron, so no
 * installer is made here: the configuration is checked with electron-builder's own loader and
 * schema, and the real electron-builder packs the app into a stand-in Electron (support/packaged-app).
 * What that package holds is then run as browser mode, so every asset and the built-in sandbox
 * are shown to come from inside the package.
 */
const projectDir = resolve('.');
let config: Configuration;

beforeAll(async () => {
  config = await getConfig(projectDir, null, null);
});

/** A file the config names, found as electron-builder finds it: in buildResources, else the project. */
function resource(name: string): string {
  const inResources = join(projectDir, config.directories?.buildResources ?? 'build', name);
  return existsSync(inResources) ? inResources : join(projectDir, name);
}

describe('electron-builder.yml', () => {
  it("is valid for electron-builder's own schema, and that validator rejects a misspelt option", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const misspelt = { ...config, nsis: { ...config.nsis, perMachin: true } } as Configuration;
    await expect(validateConfiguration(misspelt, new DebugLogger(false))).rejects.toThrow(
      /configuration\.nsis/,
    );
  });

  it('names the product and makes a deb, a per-machine NSIS installer and a dmg', () => {
    expect(config.productName).toBe('Ambient Scribe');
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z-]+){2,}$/);
    expect(config.directories?.output).toBe('dist');
    expect(config.linux?.target).toEqual(['deb']);
    expect(config.linux?.category).toBeTruthy();
    expect(config.win?.target).toBe('nsis');
    expect(config.nsis).toMatchObject({
      oneClick: false,
      perMachine: true,
      allowToChangeInstallationDirectory: true,
    });
    expect(config.nsis?.deleteAppDataOnUninstall).not.toBe(true);
    expect(config.mac?.target).toBe('dmg');
  });

  it('deb packages name a maintainer with an address (dpkg requires one)', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      author?: { name: string; email: string };
    };
    const maintainer = config.linux?.maintainer ?? `${pkg.author?.name} <${pkg.author?.email}>`;
    expect(maintainer).toMatch(/^[^<>]+ <[^@\s]+@[^@\s>]+>$/);
  });

  it('asks macOS for the microphone in a sentence, under the hardened runtime with audio input and JIT', () => {
    const usage = (config.mac?.extendInfo as Record<string, unknown> | undefined)
      ?.NSMicrophoneUsageDescription;
    expect(usage).toMatch(/^Ambient Scribe records .+\.$/);
    // A telehealth visit's call (issue 30): without this key macOS 14.2+ gives a silent stream.
    const systemAudio = (config.mac?.extendInfo as Record<string, unknown> | undefined)
      ?.NSAudioCaptureUsageDescription;
    expect(systemAudio).toMatch(/^In a telehealth visit Ambient Scribe records this computer's sound, .+\.$/);
    expect(config.mac?.hardenedRuntime).toBe(true);
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      expect(file, 'an entitlements file, else electron-builder signs helpers with its own').toBeTruthy();
      const plist = readFileSync(join(projectDir, file as string), 'utf8');
      expect(plist).toContain('<!DOCTYPE plist');
      const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
      expect(granted.sort()).toEqual([
        'com.apple.security.cs.allow-jit',
        'com.apple.security.device.audio-input',
      ]);
    }
  });

  it('names files that exist: the icon of each platform and the afterPack hook', () => {
    const linuxIcons = resource(config.linux?.icon as string);
    expect(readdirSync(linuxIcons).filter((name) => /^\d+x\d+\.png$/.test(name)).length).toBeGreaterThan(4);
    expect(statSync(resource(config.win?.icon as string)).isFile()).toBe(true);
    expect(statSync(resource(config.mac?.icon as string)).isFile()).toBe(true);
    expect(statSync(join(projectDir, config.afterPack as string)).isFile()).toBe(true);
  });

  it('registers the visit-link scheme: macOS and Linux through `protocols`, Windows in the installer', async () => {
    const protocols = [config.protocols ?? []].flat();
    expect(protocols.flatMap((protocol) => protocol.schemes)).toEqual([VISIT_LINK_SCHEME]);
    // The desktop file the deb carries, as electron-builder's own code writes it: the scheme as a
    // MIME type, and the link passed to the app as the one argument after "--" (%u).
    const desktop = await new LinuxTargetHelper(linuxPackagerFacts(config)).computeDesktopEntry(
      config.linux!,
    );
    expect(desktop).toContain(`MimeType=x-scheme-handler/${VISIT_LINK_SCHEME};`);
    expect(desktop).toMatch(/^Exec="\/opt\/Ambient Scribe\/ambient-scribe" -- %u$/m);
    // Windows: per machine, with "--" before the link so no link is read as a Chromium switch.
    const nsis = readFileSync(resource(config.nsis?.include as string), 'utf8');
    const key = `SHELL_CONTEXT "Software\\Classes\\${VISIT_LINK_SCHEME}`;
    expect(nsis).toContain(`WriteRegStr ${key}" "URL Protocol" ""`);
    expect(nsis).toContain(`WriteRegStr ${key}\\shell\\open\\command" "" '"$appExe" -- "%1"'`);
    expect(nsis).toMatch(
      /!macro customUnInstall\s+DeleteRegKey SHELL_CONTEXT "Software\\Classes\\ambient-scribe"/,
    );
  });

  it('runs sandboxed from every entry it installs: no --no-sandbox, and no AppImage, whose launcher adds it', async () => {
    const desktop = await new LinuxTargetHelper(linuxPackagerFacts(config)).computeDesktopEntry(
      config.linux!,
    );
    expect(desktop).not.toContain('--no-sandbox');
    expect(config.linux?.executableArgs).toEqual(['--', '%u']);
    for (const target of [config.linux?.target].flat()) {
      const name = typeof target === 'string' ? target : target?.target;
      expect(name?.toLowerCase(), 'an AppImage cannot promise the sandbox').not.toBe('appimage');
    }
    expect(JSON.stringify(config)).not.toContain('no-sandbox');
    // Why there is no AppImage: electron-builder's AppRun turns the sandbox off by itself wherever
    // unprivileged user namespaces are unavailable (chrome-sandbox cannot be setuid on its nosuid
    // FUSE mount), whatever the configuration says. If this changes, the AppImage may come back.
    const appRun = generateAppRunScript({
      ExecutableName: 'ambient-scribe',
      DesktopFileName: 'ambient-scribe.desktop',
      ProductFilename: 'Ambient Scribe',
      ProductName: 'Ambient Scribe',
      ResourceName: 'appimagekit-ambient-scribe',
    });
    expect(appRun).toMatch(/! unshare -Ur true[^\n]*; then\s+NO_SANDBOX=\(--no-sandbox\)/);
    // The deb makes chrome-sandbox setuid root where user namespaces do not work, and installs an
    // AppArmor profile that allows them (Ubuntu 24.04 and later).
    const afterInstall = readFileSync(
      join(projectDir, 'node_modules/app-builder-lib/templates/linux/after-install.tpl'),
      'utf8',
    );
    expect(afterInstall).toContain("chmod 4755 '/opt/${sanitizedProductName}/chrome-sandbox'");
    expect(afterInstall).toContain('apparmor-profile');
  });
});

/** What electron-builder's Linux desktop-file writer reads of its packager, from the config. */
function linuxPackagerFacts(config: Configuration): ConstructorParameters<typeof LinuxTargetHelper>[0] {
  return {
    config,
    platformSpecificBuildOptions: config.linux!,
    executableName: config.linux!.executableName!,
    appInfo: { productName: config.productName!, sanitizedProductName: config.productName! },
    info: { metadata: { desktopName: undefined } },
    fileAssociations: [],
  } as unknown as ConstructorParameters<typeof LinuxTargetHelper>[0];
}

describe('the app icons (npm run icons, from resources/icon.svg)', () => {
  const linuxSizes = () =>
    readdirSync('resources/icons').map((name) => Number(/^(\d+)x\1\.png$/.exec(name)?.[1] ?? NaN));

  it('Linux: one square PNG per size from 16 to 1024, each as large as its name says', () => {
    expect(linuxSizes().sort((a, b) => a - b)).toEqual([16, 24, 32, 48, 64, 128, 256, 512, 1024]);
    for (const size of linuxSizes()) {
      expect(pngSize(readFileSync(`resources/icons/${size}x${size}.png`))).toEqual({
        width: size,
        height: size,
      });
    }
  });

  it('Windows: an .ico from 16 to 256 px, the 256 px picture stored as PNG', () => {
    const images = icoImages(readFileSync('resources/icon.ico'));
    expect(images.map((i) => i.width)).toEqual([16, 24, 32, 48, 64, 128, 256]);
    expect(images.every((i) => i.width === i.height)).toBe(true);
    expect(images.find((i) => i.width === 256)?.png).toBe(true);
  });

  it('macOS: an .icns of PNGs whose sizes match their types, up to 1024 px', () => {
    const expected: Record<string, number> = {
      ic11: 32,
      ic12: 64,
      ic07: 128,
      ic13: 256,
      ic08: 256,
      ic14: 512,
      ic09: 512,
      ic10: 1024,
    };
    const entries = icnsEntries(readFileSync('resources/icon.icns'));
    expect(entries.map((e) => e.type).sort()).toEqual(Object.keys(expected).sort());
    for (const { type, data } of entries) {
      expect(isPng(data), type).toBe(true);
      expect(pngSize(data).width, type).toBe(expected[type]);
    }
  });

  it('are what the script makes from the SVG today, byte for byte', (ctx) => {
    const tools = ['rsvg-convert', 'icotool'].filter((tool) => spawnSync('which', [tool]).status !== 0);
    ctx.skip(tools.length > 0, `${tools.join(' and ')} not installed (.ci/run installs them)`);
    const out = mkdtempSync(join(tmpdir(), 'icons-'));
    try {
      execFileSync(process.execPath, ['scripts/make-icons.mjs', '--out', out]);
      const committed = ['icon.ico', 'icon.icns', ...readdirSync('resources/icons').map((n) => `icons/${n}`)];
      const made = ['icon.ico', 'icon.icns', ...readdirSync(join(out, 'icons')).map((n) => `icons/${n}`)];
      expect(made.sort()).toEqual(committed.sort());
      for (const file of committed) {
        expect(readFileSync(join(out, file)).equals(readFileSync(join('resources', file))), file).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('the packaged app (electron-builder --dir into a stand-in Electron)', () => {
  let work: string;
  let packed: PackedApp;
  let app: string;
  let browser: BrowserModeProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    // `npm test` builds first; a lone run of this file builds if there is no build yet.
    if (!existsSync('out/main/index.js'))
      execFileSync('npx', ['electron-vite', 'build'], { stdio: 'ignore' });
    work = mkdtempSync(join(tmpdir(), 'scribe-package-'));
    writeStandInElectron(join(work, 'electron'));
    packed = await packForLinux({
      projectDir,
      electronDist: join(work, 'electron'),
      outDir: join(work, 'dist'),
    });
    app = extractApp(packed, join(work, 'app'));
    dataDir = join(work, 'data');
    browser = await startBrowserMode({ appDir: app, dataDir, cwd: work });
  }, 240_000);

  afterAll(async () => {
    await browser?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('has the seven fuses flipped by the afterPack hook', async () => {
    const wire = await getCurrentFuseWire(packed.executable);
    expect({
      runAsNode: wire[FuseV1Options.RunAsNode],
      nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
      inspectArguments: wire[FuseV1Options.EnableNodeCliInspectArguments],
      cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
      asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
      onlyLoadFromAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
      fileProtocolExtraPrivileges: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
    }).toEqual({
      runAsNode: FuseState.DISABLE,
      nodeOptions: FuseState.DISABLE,
      inspectArguments: FuseState.DISABLE,
      cookieEncryption: FuseState.ENABLE,
      asarIntegrity: FuseState.ENABLE,
      onlyLoadFromAsar: FuseState.ENABLE,
      fileProtocolExtraPrivileges: FuseState.DISABLE,
    });
  });

  it('holds the build, package.json, the language model and runtime dependencies; no sources, tests or docs', () => {
    expect(readdirSync(app).sort()).toEqual(['node_modules', 'out', 'package.json', 'sandbox']);
    expect(readdirSync(join(app, 'out')).sort()).toEqual(['main', 'preload', 'renderer']);
    expect(readdirSync(join(app, 'sandbox/processing/language-model')).sort()).toEqual([
      'clinical.dict',
      'clinical.lm',
    ]);
    // Vite bundled these into out/renderer; packed as well they would add ~150 MB to every installer.
    for (const name of ['react', 'onnxruntime-web', '@ricky0123/vad-web']) {
      expect(existsSync(join(app, 'node_modules', name)), name).toBe(false);
    }
  });

  it("resolves its entry points to built files, and the shell's imports to packed modules", () => {
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { main: string };
    const main = join(app, pkg.main);
    expect(statSync(main).isFile()).toBe(true);
    // src/main/index.ts loads these two beside out/main: the preload and the window.
    expect(statSync(join(app, 'out/preload/index.cjs')).isFile()).toBe(true);
    expect(statSync(join(app, 'out/renderer/index.html')).isFile()).toBe(true);
    const missing = [...bareImports(main), ...bareImports(join(app, 'out/preload/index.cjs'))].filter(
      (name) => name !== 'electron' && !existsSync(join(app, 'node_modules', name, 'package.json')),
    );
    expect(missing).toEqual([]);
  });

  it('keeps the language model beside app.asar, where the sandbox finds it for pocketsphinx', () => {
    // The sandbox code in the package looks from its own folder (a chunk under out/main).
    const sandboxChunk = findFile(join(app, 'out/main'), (text) => text.includes('clinical.lm'));
    const inAsar = join(packed.asar, dirname(sandboxChunk.slice(app.length + 1)));
    expect(findLanguageModelDir(inAsar, work)).toBe(
      join(`${packed.asar}.unpacked`, 'sandbox/processing/language-model'),
    );
  });

  it('serves the window, the VAD model, the onnxruntime wasm and the capture worklet from the package', async () => {
    const get = (path: string) => fetch(new URL(path, browser!.origin));
    const index = await get('/');
    expect(index.status).toBe(200);
    const html = await index.text();
    expect(html).toBe(readFileSync(join(app, 'out/renderer/index.html'), 'utf8'));

    const linked = attributeUrls(html);
    const script = linked.find((url) => url.endsWith('.js'));
    expect(script).toBeDefined();
    // What the window loads beside its script: the capture worklet and the voice-detection worker;
    // and beside the worker's script, the Silero model and the onnxruntime wasm. (onnxruntime also
    // names a loader script it uses only in pages from file:.)
    const besides = (module: string, kinds: string[]) => {
      const named = moduleRelativeUrls(join(app, 'out/renderer', module));
      return kinds.map((kind) => {
        const found = named.filter((name) =>
          kind.startsWith('.') ? name.endsWith(kind) : name.startsWith(kind),
        );
        expect(new Set(found).size, kind).toBe(1);
        return new URL(found[0] as string, new URL(module, `${browser!.origin}/`)).pathname;
      });
    };
    const [worklet, worker] = besides(script!, ['capture-processor', 'speech-worker']);
    const loaded = [worklet!, worker!, ...besides(worker!.slice(1), ['.onnx', '.wasm'])];
    const assets = [...linked.map((url) => new URL(url, `${browser!.origin}/`).pathname), ...loaded];
    for (const path of assets) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      if (path.endsWith('.wasm')) expect(response.headers.get('content-type')).toBe('application/wasm');
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.equals(readFileSync(join(app, 'out/renderer', path))), path).toBe(true);
    }
  });

  it('runs the built-in sandbox from the package, with its data in the app data directory', async () => {
    // The form templates come from the service: here the sandbox the core starts with the app.
    const reply = (await callOverSocket(browser!, 'forms.templates')) as {
      ok: boolean;
      value?: { templates: unknown[] };
    };
    expect(reply.ok).toBe(true);
    expect(reply.value?.templates.length).toBeGreaterThan(0);
    // Sealed with the spool's key: nothing of the demo in the clear.
    expect(existsSync(join(dataDir, 'sandbox', 'token-key.json.sealed'))).toBe(true);
  });

  it('loads nothing from the network: same-origin URLs only, under a CSP that allows nothing remote', () => {
    const html = readFileSync(join(app, 'out/renderer/index.html'), 'utf8');
    const metaCsp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    // The window's CSP in the package, and the header the app:// protocol adds in Electron.
    for (const csp of [metaCsp, RENDERER_CSP]) expect(remoteSources(csp ?? '')).toEqual([]);
    expect(metaCsp).toBe(RENDERER_CSP);
    const scripts = readdirSync(join(app, 'out/renderer/assets')).filter((name) => name.endsWith('.js'));
    const urls = [
      ...attributeUrls(html),
      ...scripts.flatMap((name) => moduleRelativeUrls(join(app, 'out/renderer/assets', name))),
    ];
    expect(urls.length).toBeGreaterThan(3);
    expect(urls.filter((url) => /^([a-z]+:|\/\/)/i.test(url))).toEqual([]);
  });
});
