/**
 * The floor under recording's cost, measured in the same run as the app: a page that does nothing
 * but the app's own capture graph (the microphone into a 16 kHz AudioContext rendering as the app's
 * does, into the built capture worklet from out/renderer, chunks handed back five at a time, as the app does) with
 * no voice detection, no sending and nothing drawn. What recording costs above this is the app's
 * own work; the floor itself moves with the machine (the same page measured 2.7 to 3.7 % of a core
 * on different hours of one day), which is why it is measured beside the app and not quoted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureContextOptions } from '../../src/renderer/audio/capture-latency';
import { CAPTURE_PROCESSOR_NAME } from '../../src/renderer/audio/worklet/messages';
import { onCleanup } from '../support/run';

const ASSETS = 'out/renderer/assets';

/** The page, as capture-graph.ts builds the graph (the constraints microphone.ts asks for). */
function floorPage(workletUrl: string): string {
  return `<!doctype html><meta charset="utf-8"><title>capture floor</title><script type="module">
const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: { ideal: 1 },
  echoCancellation: false, noiseSuppression: false, autoGainControl: false }, video: false });
const context = new AudioContext(${JSON.stringify(captureContextOptions(16_000))});
await context.audioWorklet.addModule(${JSON.stringify(workletUrl)});
const node = new AudioWorkletNode(context, ${JSON.stringify(CAPTURE_PROCESSOR_NAME)}, { numberOfInputs: 1,
  numberOfOutputs: 0, channelCount: 1, channelCountMode: 'explicit', channelInterpretation: 'speakers' });
window.chunks = 0;
let returning = [];
node.port.onmessage = ({ data }) => {
  if (data.type !== 'chunk') return;
  window.chunks++;
  returning.push(data.message);
  if (returning.length < 5) return;
  node.port.postMessage({ type: 'release', messages: returning }, returning);
  returning = [];
};
context.createMediaStreamSource(stream).connect(node);
</script>`;
}

/** Serves the floor page and the built worklet on a loopback port (a secure context for the microphone). */
export async function startFloorServer(): Promise<{ url: string }> {
  const worklet = readdirSync(ASSETS).find((name) => /^capture-processor-.*\.js$/.test(name));
  if (!worklet) throw new Error(`no capture worklet in ${ASSETS}: run npm run build`);
  const server: Server = createServer((request, response) => {
    if (request.url === `/${worklet}`) {
      response.setHeader('content-type', 'text/javascript');
      response.end(readFileSync(`${ASSETS}/${worklet}`));
    } else if (request.url === '/') {
      response.setHeader('content-type', 'text/html');
      response.end(floorPage(`/${worklet}`));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}
