/**
 * The app: how long browser mode takes from spawn to its first screen in Chromium (reference: a bare
 * Node static server for the same built renderer, to DOMContentLoaded), what the built renderer
 * weighs, and what the installed dependencies take on disk.
 *
 *   node --import tsx bench/app-startup/main.ts [--quick]
 *
 * Needs `npm run build` and Chromium. `--quick`: 2 starts each instead of 5.
 */
import { launchChromium } from '../browser-app/launch';
import { QUICK, requireBuild, requireChromium, runBenchmark } from '../browser-app/run';
import { report } from './markdown';
import { bundleSizes, dependencySizes } from './sizes';
import { startOurs, startReference, type Startup } from './startup';

const STARTS = QUICK ? 2 : 5;
const RENDERER_DIR = 'out/renderer';

runBenchmark('app-startup', 3 * 60_000, async () => {
  requireBuild();
  requireChromium();
  const started = Date.now();
  const browser = await launchChromium();
  const ours: Startup[] = [];
  const reference: Startup[] = [];
  for (let k = 0; k < STARTS; k++) {
    // Alternating, each first in turn.
    const pair = k % 2 === 0 ? (['ours', 'reference'] as const) : (['reference', 'ours'] as const);
    for (const which of pair) {
      if (which === 'ours') ours.push(await startOurs(browser));
      else reference.push(await startReference(browser, RENDERER_DIR));
    }
    console.log(
      `start ${k + 1}: ours ${JSON.stringify(ours.at(-1))}; reference ${JSON.stringify(reference.at(-1))}`,
    );
  }
  await browser.close();
  const bundle = bundleSizes(RENDERER_DIR);
  const dependencies = dependencySizes();
  await report({
    ours,
    reference,
    bundle,
    dependencies,
    wallSeconds: (Date.now() - started) / 1000,
  });
});
