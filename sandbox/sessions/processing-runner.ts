import type { FormTemplate, Notification, SummarySection } from '../../src/shared/service';
import type { NoteAlteration } from '../control/faults';
import type { Timing } from '../limits';
import type { AsrMode, ExtractForms, GenerateNote, Recognize } from '../processing/types';
import type { SessionRecord } from './session-record';
import type { SessionStore } from './session-store';

export interface ProcessingDeps {
  store: SessionStore;
  timing: Timing;
  asr: AsrMode;
  /** Less detected speech than this → skipped (docs/protocol.md: "less audio than the minimum"). */
  minSpeechMs: number;
  recognize: Recognize;
  generateNote: GenerateNote;
  extractForms: ExtractForms;
  templates: readonly FormTemplate[];
  notify(session: SessionRecord, payload: Notification): void;
  baseUrl(): string;
  /** Session ids whose processing must fail (the control API's fault). */
  failProcessing: Set<string>;
  /** Notes to write with an error injected (the control API's alter_note), by session id. */
  alterNote: Map<string, NoteAlteration>;
  log: { warn(message: string, fields?: Record<string, unknown>): void };
}

/**
 * Note generation after End: waits the (time-scaled) processing delay, recognizes the audio that
 * actually arrived, builds the note or the forms, sets the final status and notifies the partner.
 */
export function createProcessingRunner(deps: ProcessingDeps) {
  const { store } = deps;

  async function run(session: SessionRecord): Promise<void> {
    if (deps.failProcessing.delete(session.id)) {
      return fail(
        session,
        'ERROR_CODE_INTERNAL',
        'processing failed (fault injected by the sandbox control API)',
      );
    }
    let recognition;
    try {
      recognition = await deps.recognize(await store.readAudio(session), { asr: deps.asr });
    } catch (error) {
      deps.log.warn('recognition failed', { session: session.id, error: (error as Error).message });
      return fail(session, 'ERROR_CODE_TRANSCRIPTION', 'speech recognition failed');
    }
    if (recognition.entries.length === 0 || recognition.speechMs < deps.minSpeechMs) {
      // protocol: Ambient session (skipped: no usable speech, or less audio than the minimum)
      return finish(session, 'skipped', {
        status: 'failure',
        session_id: session.id,
        encounter_id: session.encounterId,
        error_code: 'ERROR_CODE_NO_SPEECH',
        error_detail: `${Math.round(recognition.speechMs)} ms of speech; the minimum is ${deps.minSpeechMs} ms`,
      });
    }
    try {
      session.result = {
        engine: recognition.engine,
        speechMs: recognition.speechMs,
        transcript: recognition.entries,
        ...(session.kind === 'ambient'
          ? { summary: altered(session, deps.generateNote(recognition.entries, session.context.sections)) }
          : { forms: deps.extractForms(recognition.entries, session.formItems, deps.templates) }),
      };
    } catch (error) {
      deps.log.warn('note generation failed', { session: session.id, error: (error as Error).message });
      return fail(session, 'ERROR_CODE_NOTE_GENERATION', 'note generation failed');
    }
    finish(session, 'completed', () => successPayload(session, recognition.engine));
  }

  /** The note with the control API's injected error, if one was asked for this session. */
  function altered(session: SessionRecord, summary: SummarySection[]): SummarySection[] {
    const alteration = deps.alterNote.get(session.id);
    if (!alteration) return summary;
    deps.alterNote.delete(session.id);
    const at = summary.findIndex((section) => section.content.includes(alteration.find));
    if (at < 0) {
      deps.log.warn('alter_note: the note does not say what was to be replaced', { session: session.id });
      return summary;
    }
    return summary.map((section, index) =>
      index === at
        ? { ...section, content: section.content.replace(alteration.find, alteration.replace) }
        : section,
    );
  }

  function fail(session: SessionRecord, code: string, detail: string): void {
    session.failure = { error_code: code, error_detail: detail };
    finish(session, 'failed', {
      status: 'failure',
      session_id: session.id,
      encounter_id: session.encounterId,
      error_code: code,
      error_detail: detail,
    });
  }

  /** The payload is built after the status is set, so its `sessions` list shows the final status. */
  function finish(
    session: SessionRecord,
    status: string,
    payload: Notification | (() => Notification),
  ): void {
    store.setStatus(session, status);
    void store.save(session);
    deps.notify(session, typeof payload === 'function' ? payload() : payload);
  }

  function successPayload(session: SessionRecord, engine: string): Notification {
    const base = deps.baseUrl();
    const link = (name: string, path: string) => [{ method: 'GET', href: `${base}${path}`, name }];
    const prefix = session.kind === 'ambient' ? '/api/v1/ambient/session' : '/api/v1/form-filling/session';
    // protocol: Notifications (_links keys contents, encounter_content, transcripts, status; structured_data for forms)
    const links: Record<string, { method: string; href: string; name: string }[]> =
      session.kind === 'ambient'
        ? {
            contents: link('content', `${prefix}/${session.id}/content`),
            encounter_content: link(
              'encounter content',
              `/api/v1/ambient/encounter/${session.encounterId}/content`,
            ),
            transcripts: link('transcript', `${prefix}/${session.id}/transcript`),
            status: link('status', `${prefix}/${session.id}/status`),
          }
        : {
            status: link('status', `${prefix}/${session.id}/status`),
            structured_data: link('structured data', `${prefix}/${session.id}/structured-data`),
          };
    return {
      status: 'success',
      session_id: session.id,
      encounter_id: session.encounterId,
      sessions: store
        .list()
        .filter(
          (s) =>
            s.encounterId === session.encounterId &&
            s.partnerId === session.partnerId &&
            s.providerId === session.providerId,
        )
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((s) => ({ session_id: s.id, status: s.status })),
      additional_info: { asr: engine },
      _links: links,
    };
  }

  return {
    start(sessionId: string): void {
      const session = store.get(sessionId);
      if (!session) return;
      setTimeout(() => {
        run(session).catch((error: unknown) => {
          deps.log.warn('processing crashed', { session: sessionId, error: (error as Error).message });
          fail(session, 'ERROR_CODE_INTERNAL', 'internal error');
        });
      }, deps.timing.ms('processingDelayMs'));
    },
  };
}
