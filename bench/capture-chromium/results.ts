/** What one run measured: the rows every table and the recommendation are made from. */
import type { SpeechQuality, ToneQuality } from './analysis';
import type { CpuUse } from './chromium';
import type { BuiltWorklet } from './harness';
import type { ProbeResult } from './harness/api';

export interface CaptureRow {
  source: string;
  kind: 'speech' | 'tone';
  variant: string;
  round: number;
  contextRate: number;
  chunks: number;
  /** Seconds of input the worklet received (its last chunk's endTime). */
  inputSeconds: number;
  /** The context's currentTime at stop. */
  contextSeconds: number;
  cpu: CpuUse;
  windowSeconds: number;
  speech: SpeechQuality | undefined;
  tone: ToneQuality | undefined;
}

export interface Results {
  rows: CaptureRow[];
  probes: { fileRate: number; probe: ProbeResult }[];
  /** How the Vite build emitted the worklet. */
  worklet: BuiltWorklet;
  /** sox's own output for each tone file, measured like a capture (the files' floor). */
  toneReferences: Record<string, ToneQuality>;
  wallSeconds: number;
  /** The 1-minute load average before and after: how busy the machine was. */
  loadAverage: { start: number; end: number };
}

/** The goals the issue set, and the source whose two rounds give the CPU figures. */
export const SNR_GOAL_DB = 50;
export const ALIAS_GOAL_DB = -60;
export const CPU_BUDGET = 3;
export const MAIN_SOURCE = 'speech 44.1 kHz';

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** Means over the main source's rounds, per variant. */
export function cpuMeans(results: Results): Record<string, CpuUse> {
  const means: Record<string, CpuUse> = {};
  for (const variant of ['reference', 'reference-16k', 'A', 'B']) {
    const rows = results.rows.filter((r) => r.source === MAIN_SOURCE && r.variant === variant);
    if (rows.length === 0) throw new Error(`no ${variant} captures of ${MAIN_SOURCE}`);
    const use = {} as CpuUse;
    for (const key of Object.keys(rows[0]!.cpu) as (keyof CpuUse)[]) {
      use[key] = mean(rows.map((r) => r.cpu[key]));
    }
    means[variant] = use;
  }
  return means;
}

/** The CPU window of a source's captures, whole seconds. */
export function windowOf(results: Results, source: string): string {
  return results.rows.find((r) => r.source === source)?.windowSeconds.toFixed(0) ?? '?';
}

/** A candidate's speech figures on the main source: the capture that compared the most audio. */
export function speechOf(results: Results, variant: string): SpeechQuality {
  const found = results.rows
    .filter((r) => r.source === MAIN_SOURCE && r.variant === variant && r.speech)
    .map((r) => r.speech!)
    .sort((a, b) => b.seconds - a.seconds);
  if (!found[0]) throw new Error(`no ${variant} speech capture of ${MAIN_SOURCE}`);
  return found[0];
}

/** A candidate's alias level on each tone file, in file order. */
export function aliases(results: Results, variant: string): number[] {
  return results.rows.filter((r) => r.variant === variant && r.tone).map((r) => r.tone!.aliasDbTone);
}
