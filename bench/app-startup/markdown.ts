/** The app benchmark's figures: printed, written as its section of docs/benchmarks.md, and its headline rows. */
import { table, writeFormattedSection } from '../browser-app/section';
import { loadNote } from '../browser-app/run';
import { median, num } from '../browser-app/stats';
import { ratio, saveHeadline, type HeadlineRow } from '../headline';
import { machineLine } from '../report';
import type { BundleSizes, DependencySizes } from './sizes';
import type { Startup } from './startup';

const SECTION = 'app-startup';

const kB = (bytes: number) => `${num(bytes / 1000)} kB`;
const MB = (bytes: number) => `${num(bytes / 1e6, 1)} MB`;

export async function report(input: {
  ours: Startup[];
  reference: Startup[];
  bundle: BundleSizes;
  dependencies: DependencySizes;
  wallSeconds: number;
}): Promise<void> {
  const { ours, reference, bundle, dependencies } = input;
  const med = (runs: Startup[], pick: (s: Startup) => number | undefined) =>
    median(runs.map(pick).filter((v): v is number => v !== undefined));
  const cell = (runs: Startup[], pick: (s: Startup) => number | undefined) =>
    runs.some((r) => pick(r) !== undefined)
      ? `${num(med(runs, pick))} (${runs.map((r) => num(pick(r) ?? Number.NaN)).join(', ')})`
      : '—';
  const oursHeading = med(ours, (s) => s.headingMs);
  const oursDcl = med(ours, (s) => s.domContentLoadedMs);
  const refDcl = med(reference, (s) => s.domContentLoadedMs);
  const dclRatio = ratio(oursDcl, refDcl);
  const { production, all } = dependencies;
  const depRatio = ratio(production.diskBytes, all.diskBytes);

  const startTable = table(
    ['from spawn, ms: median (each start)', 'browser mode', 'reference: static server', 'ours / reference'],
    [
      [
        '→ printed its address',
        cell(ours, (s) => s.listeningMs),
        cell(reference, (s) => s.listeningMs),
        times(
          ratio(
            med(ours, (s) => s.listeningMs),
            med(reference, (s) => s.listeningMs),
          ),
        ),
      ],
      [
        '→ DOMContentLoaded',
        cell(ours, (s) => s.domContentLoadedMs),
        cell(reference, (s) => s.domContentLoadedMs),
        times(dclRatio),
      ],
      ['→ first screen (“Set up the documentation service”)', cell(ours, (s) => s.headingMs), '—', '—'],
      [
        'navigation start → DOMContentLoaded',
        cell(ours, (s) => s.navigationToDclMs),
        cell(reference, (s) => s.navigationToDclMs),
        times(
          ratio(
            med(ours, (s) => s.navigationToDclMs),
            med(reference, (s) => s.navigationToDclMs),
          ),
        ),
      ],
      ['navigation start → first screen', cell(ours, (s) => s.navigationToHeadingMs), '—', '—'],
    ],
  );
  const sizeTable = table(
    ['out/renderer', 'bytes', 'share'],
    [
      [
        'JavaScript',
        `${kB(bundle.jsBytes)} (gzip ${kB(bundle.jsGzipBytes)})`,
        pctOf(bundle.jsBytes, bundle.totalBytes),
      ],
      ['WebAssembly (onnxruntime-web)', MB(bundle.wasmBytes), pctOf(bundle.wasmBytes, bundle.totalBytes)],
      ['Silero model (.onnx)', MB(bundle.modelBytes), pctOf(bundle.modelBytes, bundle.totalBytes)],
      ['HTML, CSS, images', kB(bundle.otherBytes), pctOf(bundle.otherBytes, bundle.totalBytes)],
      [`total (${bundle.files} files)`, MB(bundle.totalBytes), '100 %'],
    ],
  );
  const depTable = table(
    ['installed', 'packages', 'on disk (du)', 'file sizes (du -b)'],
    [
      [
        'production dependencies (`npm ls --omit=dev --parseable --all`)',
        num(production.packages),
        MB(production.diskBytes),
        MB(production.apparentBytes),
      ],
      ['all of node_modules', num(all.packages), MB(all.diskBytes), MB(all.apparentBytes)],
      ['production / all', '', times(depRatio), ''],
    ],
  );

  const markdown = `## The app: start-up, bundle, dependencies

${machineLine()}. Wall time of the whole script: ${Math.round(input.wallSeconds)} s; ${loadNote()}.

**Browser mode shows its first screen ${num(oursHeading)} ms after it is spawned** (median of ${ours.length});
it reaches DOMContentLoaded after ${num(oursDcl)} ms, against ${num(refDcl)} ms for a bare static server serving the
same files${dclRatio !== undefined ? ` (${dclRatio}×)` : ''}. **The built renderer is ${MB(bundle.totalBytes)}, of which ${kB(bundle.jsBytes)}
JavaScript (${kB(bundle.jsGzipBytes)} gzipped)**; the production dependencies take ${MB(production.diskBytes)} on disk of
${MB(all.diskBytes)} in node_modules.

${startTable}

${sizeTable}

${depTable}

Largest production packages on disk: ${production.largest.map((p) => `${p.name} ${MB(p.diskBytes)}`).join(', ')}.

**How it was measured.** Start-up: ${ours.length} starts of each, alternating, in one headless Chromium, each page in
a new browser context (empty cache). Ours: \`node out/main/browser.js --port 0 --data <empty dir>\` (so the first-run
screen), spawned as \`npm run start:browser\` would, its launch address opened as soon as it prints \`SCRIBE_URL\`.
Reference: Node's \`http\` + \`fs\` serving \`out/renderer\` (the same \`index.html\`, bundle, CSS, wasm and model),
spawned with \`node -e\` and opened as soon as it prints its address; a static server has no settings to read, so
its page never shows the first screen (the app's scripts load and find no core) and the comparison is to
DOMContentLoaded, which both pages reach after running the same module script. Times are from spawning the
process (\`Date.now()\` here) to the page's navigation timing and, for our heading, to when a MutationObserver
installed before the app's scripts saw it in the DOM (page clock \`performance.timeOrigin + now()\`, the same
wall clock). Sizes: every file under \`out/renderer\` by type, JavaScript also gzipped with zlib's default level.
Dependencies: the package directories \`npm ls --omit=dev --parseable --all\` lists, each without its nested
node_modules (nested packages are listed themselves), against the whole of node_modules (dev tools, Electron,
the build chain); allocated blocks as \`du\` counts them, each inode once, symlinks not followed.

Run: \`node --import tsx bench/app-startup/main.ts\` (\`--quick\`: 2 starts of each).`;

  await writeFormattedSection(SECTION, markdown);
  const rows: HeadlineRow[] = [
    {
      metric: `Browser mode start: spawn → DOMContentLoaded (→ first screen), median of ${ours.length}`,
      ours: `${num(oursDcl)} ms (first screen ${num(oursHeading)} ms)`,
      reference: `${num(refDcl)} ms (static server, same files)`,
      ...(dclRatio !== undefined ? { ratio: dclRatio } : {}),
    },
    {
      metric: 'Renderer bundle (out/renderer)',
      ours: `${MB(bundle.totalBytes)}: JS ${kB(bundle.jsBytes)} (gzip ${kB(bundle.jsGzipBytes)}), wasm ${MB(bundle.wasmBytes)}, model ${MB(bundle.modelBytes)}`,
    },
    {
      metric: 'Installed production dependencies on disk',
      ours: `${MB(production.diskBytes)} (${production.packages} packages)`,
      reference: `${MB(all.diskBytes)} all of node_modules (${all.packages} packages)`,
      ...(depRatio !== undefined ? { ratio: depRatio } : {}),
    },
  ];
  console.log('headline:', saveHeadline(SECTION, rows));
}

function pctOf(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)} %`;
}

const times = (r: number | undefined) => (r === undefined ? '—' : `${r}×`);
