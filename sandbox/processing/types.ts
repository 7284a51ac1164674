/**
 * The interface between the sandbox's HTTP/stream layer and its processing (speech recognition,
 * note generation, form extraction). Processing code is pure apart from spawning pocketsphinx.
 */
import type {
  FilledForm,
  FormContextItem,
  FormTemplate,
  SummarySection,
  TranscriptEntry,
} from '../../src/shared/service';

export type AsrMode = 'auto' | 'pocketsphinx' | 'energy';

export interface RecognitionResult {
  /** Utterances in order, ids unique within the session, offsets from the start of the session's audio. */
  entries: TranscriptEntry[];
  /** Which engine produced the words ("pocketsphinx"), or "energy" when only segments were found. */
  engine: 'pocketsphinx' | 'energy';
  /** Total milliseconds of detected speech. */
  speechMs: number;
}

/** Recognize a session's audio: LINEAR16 little-endian, 16 kHz, mono. */
export type Recognize = (
  pcm: Buffer,
  options: { asr: AsrMode; signal?: AbortSignal },
) => Promise<RecognitionResult>;

/** Fill the requested sections (DEFAULT_SECTIONS when undefined or empty) from the transcript. */
export type GenerateNote = (entries: TranscriptEntry[], sections: string[] | undefined) => SummarySection[];

/** Fill each form item (template or custom schema) from the transcript. */
export type ExtractForms = (
  entries: TranscriptEntry[],
  items: FormContextItem[],
  templates: readonly FormTemplate[],
) => FilledForm[];
