import type { StateCreator } from 'zustand/vanilla';
import type { Heartbeat } from '../../shared/contract';
import type { LinkState } from '../api/link-state';
import type { AppState } from './app-store';

export interface ConnectionSlice {
  link: LinkState;
  lastHeartbeat: Heartbeat | null;
  /** Renderer clock when the last heartbeat arrived (the main clock may differ). */
  lastHeartbeatReceivedAt: number | null;
  setLink(link: LinkState): void;
  receiveHeartbeat(beat: Heartbeat, receivedAt: number): void;
}

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set) => ({
  link: 'connecting',
  lastHeartbeat: null,
  lastHeartbeatReceivedAt: null,
  setLink: (link) => set({ link }),
  receiveHeartbeat: (beat, receivedAt) => set({ lastHeartbeat: beat, lastHeartbeatReceivedAt: receivedAt }),
});
