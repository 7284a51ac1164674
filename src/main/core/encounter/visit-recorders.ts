import type { AudioChunk } from '../../../shared/contract';
import { UserFacingError } from '../user-facing-error';
import type { Leg } from './visit-leg';

/** A visit as its recorders see it: the main leg, and for an ambient visit with forms a form leg. */
export interface VisitLegs extends Leg {
  formLeg?: Leg;
  /** End was pressed. */
  ending?: boolean;
}

/** A recorder in these states takes no more audio: a new visit may start. */
export const STOPPED = new Set(['ended', 'cancelled', 'failed']);

export function legsOf(visit: VisitLegs): Leg[] {
  return visit.formLeg ? [visit, visit.formLeg] : [visit];
}

/**
 * The recorder verbs of a visit. Each goes to every leg's recorder: the form-filling leg hears the
 * same chunks, pauses and resumes, and rejoins with the same page.
 */
export const visitRecorders = {
  chunk(visit: VisitLegs, chunk: AudioChunk): void {
    for (const leg of legsOf(visit)) leg.recorder.pushChunk(chunk);
  },
  pause(visit: VisitLegs): void {
    for (const leg of legsOf(visit)) leg.recorder.pause();
  },
  resume(visit: VisitLegs): void {
    for (const leg of legsOf(visit)) leg.recorder.resume();
  },
  /** recorder.attach: a new page's capture joins the visit being recorded, numbered from 0. */
  attachCapture(visit: VisitLegs): void {
    if (visit.ending || STOPPED.has(visit.recorder.state.state))
      throw new UserFacingError('invalid_request', 'No recording is running.');
    for (const leg of legsOf(visit)) leg.recorder.attachCapture();
  },
  /** The capturing page went away: the visit waits for it instead of counting a stall. */
  captureDetached(visit: VisitLegs): void {
    if (visit.ending) return;
    for (const leg of legsOf(visit)) leg.recorder.captureDetached();
  },
};
