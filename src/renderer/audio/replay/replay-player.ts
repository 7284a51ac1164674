import type { ReplayPlayer } from '../../store/replay-slice';

/**
 * Plays a stretch of a visit's recording (issue 38): 16 kHz mono Int16 PCM from main, through a
 * Web Audio context of its own (not the capture's), at 1× or 1.5×. One stretch at a time; the
 * samples live only in this buffer, never in a file or an object URL, and are let go at the end.
 */
export function createReplayPlayer(): ReplayPlayer {
  let context: AudioContext | undefined;
  let source: AudioBufferSourceNode | undefined;
  const stopSource = () => {
    if (!source) return;
    const playing = source;
    source = undefined;
    playing.onended = null;
    try {
      playing.stop();
    } catch {
      // Never started, or already ended: nothing plays either way.
    }
    playing.disconnect();
  };
  // 'playback': a smooth voice matters here, not the few ms of latency the capture cares for.
  const open = () => (context ??= new AudioContext({ latencyHint: 'playback' }));
  return {
    warm() {
      if (context) return;
      // Made at once, then suspended: a running context would render silence all the while.
      void open()
        .suspend()
        .catch(() => undefined);
    },
    async prepare() {
      const ready = open();
      if (ready.state === 'suspended') await ready.resume();
    },
    async play(pcm, sampleRate, rate, onEnded, options) {
      stopSource();
      const output = open();
      const buffer = output.createBuffer(1, Math.max(1, pcm.length), sampleRate);
      const samples = buffer.getChannelData(0);
      for (let i = 0; i < pcm.length; i++) samples[i] = pcm[i]! / 32_768;
      const node = output.createBufferSource();
      node.buffer = buffer;
      node.playbackRate.value = rate;
      node.connect(output.destination);
      node.onended = () => {
        if (source !== node) return;
        source = undefined;
        node.disconnect();
        // Suspended between lines: a running context renders silence for nothing.
        void output.suspend().catch(() => undefined);
        onEnded();
      };
      source = node;
      // Paused while main read the span: it starts where it is once resumed.
      if (options?.paused) await output.suspend();
      else if (output.state === 'suspended') await output.resume();
      node.start();
    },
    setRate(rate) {
      if (source) source.playbackRate.value = rate;
    },
    async pause() {
      await context?.suspend();
    },
    async resume() {
      await context?.resume();
    },
    stop() {
      stopSource();
      // Silent until the next press, which resumes it (prepare, play).
      void context?.suspend().catch(() => undefined);
    },
  };
}
