import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The product ships the product: the built-in demo service is the test emulator (Fastify, an
 * OpenID Connect provider, a speech recognizer run as a child process), and the app loads it only
 * when the demo is chosen. This reads the built main-process bundle and follows every static
 * import from the two entry points (the Electron shell and browser mode): none of the emulator
 * may be reachable that way; it must sit behind a dynamic import().
 */
const OUT = 'out/main';
/**
 * The emulator's packages each entry must not load up front. Browser mode's own host serves the
 * window with Fastify, so only the Electron shell must be free of Fastify itself.
 */
const EMULATOR_PACKAGES: Record<string, string[]> = {
  'index.js': ['fastify', '@fastify/websocket', '@fastify/static', 'oidc-provider'],
  'browser.js': ['oidc-provider'],
};
/** Strings only the emulator's own code holds (its recognizer spawner and its control API). */
const EMULATOR_CODE = ['pocketsphinx_continuous', '/__sandbox/faults'];

interface Graph {
  files: string[];
  packages: Set<string>;
  dynamicChunks: string[];
}

/** Static imports (`import … from '…'`, `export … from '…'`, bare `import '…'`) of one built file. */
function staticImports(code: string): string[] {
  const found: string[] = [];
  for (const match of code.matchAll(
    /(?:^|[;\n}])\s*(?:import|export)\s*(?:[^'"`;()]*?\sfrom\s*)?["']([^"']+)["']/g,
  ))
    found.push(match[1] as string);
  return found;
}

const dynamicImports = (code: string) =>
  [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] as string);

function staticGraph(entry: string): Graph {
  const graph: Graph = { files: [], packages: new Set(), dynamicChunks: [] };
  const queue = [resolve(OUT, entry)];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (graph.files.includes(file)) continue;
    graph.files.push(file);
    const code = readFileSync(file, 'utf8');
    for (const specifier of staticImports(code)) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:'))
        graph.packages.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
    for (const specifier of dynamicImports(code))
      if (specifier.startsWith('.')) graph.dynamicChunks.push(resolve(dirname(file), specifier));
  }
  return graph;
}

// npm test builds first; a run of this file alone builds when there is no build yet.
beforeAll(() => {
  if (!existsSync(`${OUT}/index.js`)) execFileSync('npx', ['electron-vite', 'build'], { stdio: 'ignore' });
}, 120_000);

describe('the main-process bundle', () => {
  it.each(['index.js', 'browser.js'])('%s reaches no emulator code through static imports', (entry) => {
    const graph = staticGraph(entry);
    for (const name of EMULATOR_PACKAGES[entry] ?? [])
      expect([...graph.packages], `${entry} imports ${name}`).not.toContain(name);
    for (const file of graph.files) {
      const code = readFileSync(file, 'utf8');
      for (const marker of EMULATOR_CODE)
        expect(code.includes(marker), `${file} holds ${marker}`).toBe(false);
    }
    // The demo is still there, behind a dynamic import: that chunk's own graph holds the emulator.
    const behindDynamicImport = graph.dynamicChunks.flatMap((chunk) =>
      existsSync(chunk) ? staticGraph(chunk).files : [],
    );
    expect(
      behindDynamicImport.some((file) => readFileSync(file, 'utf8').includes('pocketsphinx_continuous')),
      'a dynamically imported chunk holds the demo service',
    ).toBe(true);
  });

  it('the check itself sees a static import of the emulator (npm run sandbox imports it so)', () => {
    const graph = staticGraph('sandbox.js');
    expect([...graph.packages]).toContain('fastify');
    expect(graph.files.some((file) => readFileSync(file, 'utf8').includes('pocketsphinx_continuous'))).toBe(
      true,
    );
  });
});
