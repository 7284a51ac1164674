import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../sandbox/server';
import { useBearerPartner } from './support/sandbox-partner';
import {
  call,
  core,
  historyEntries,
  play,
  serviceCopyAt,
  spooledCopy,
  startCore,
  startVisit,
  useSpoolSandbox,
  waitFor,
} from './support/spool-visit';

/**
 * A visit ended while its service is down finishes by itself in the next run, and only at the
 * service and for the provider it was recorded for: a changed address or provider leaves it
 * waiting, with its audio.
 */
useSpoolSandbox();

describe('the spool behind a visit', () => {
  it('End pressed while the service is down, then the app stops: the next run finishes the visit by itself', async () => {
    // A service of its own, to stop and start again on the same port and data directory.
    const serviceData = mkdtempSync(join(tmpdir(), 'scribe-service-'));
    let service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData });
    const port = Number(new URL(service.url).port);
    try {
      const { sessionId, dataDir } = await startVisit({ serviceUrl: service.url });
      play(`${'.'.repeat(5)}${'S'.repeat(20)}`);
      await waitFor('recorder.changed', (v) => v.state === 'streaming');
      await service.close();
      // Recording goes on offline; then End, with the service still away.
      play(`${'S'.repeat(15)}${'.'.repeat(10)}`, 25);
      await call('recorder.end');
      await waitFor('recorder.changed', (v) => String(v.reason ?? '').startsWith('Finishing when online'));
      await expect
        .poll(async () => (await historyEntries())[0]?.state, { timeout: 15_000 })
        .toBe('finishing');
      expect((await spooledCopy(dataDir, sessionId)).manifest.state).toBe('finishing');
      await core.stop();

      service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData, port });
      await startCore(dataDir);
      // Nobody presses anything: the visit finishes by itself.
      const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
      expect(done.status).toBe('completed');
      const received = await serviceCopyAt(service.url, sessionId);
      const spooled = await spooledCopy(dataDir, sessionId);
      expect(spooled.bytes).toBe(50 * 3_200);
      expect(received.received_bytes).toBe(spooled.bytes);
      expect(received.pcm_sha256).toBe(spooled.sha256);
      expect(spooled.manifest.state).toBe('delivered');
      expect((await historyEntries())[0]).toMatchObject({ sessionId, state: 'done', audioKept: false });
    } finally {
      await service.close();
      rmSync(serviceData, { recursive: true, force: true });
    }
  });

  it('a visit goes only to the service, provider and sign-in model it was recorded for: a changed address or provider leaves it waiting, with its audio, and shows it to neither', async () => {
    // The service the visit is recorded for, stopped before End (so End leaves it finishing).
    const serviceData = mkdtempSync(join(tmpdir(), 'scribe-service-'));
    let service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData });
    const port = Number(new URL(service.url).port);
    const other = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
    try {
      const { sessionId, dataDir } = await startVisit({ serviceUrl: service.url });
      play(`${'.'.repeat(5)}${'S'.repeat(20)}`);
      await waitFor('recorder.changed', (v) => v.state === 'streaming');
      await service.close();
      await call('recorder.end');
      await expect
        .poll(async () => (await historyEntries())[0]?.state, { timeout: 15_000 })
        .toBe('finishing');
      expect((await spooledCopy(dataDir, sessionId)).manifest.deliverTo).toEqual({
        service: new URL(service.url).origin,
        partnerId: 'demo-bearer',
        providerId: 'dr-spool',
        model: 'bearer',
      });
      await core.stop();

      // The next run points at another service (Settings, or a policy the user can write).
      await startCore(dataDir);
      await useBearerPartner(core, other.url, 'dr-spool');
      // The owner is the service too (issue 39): the same provider at another address does not own it.
      await expect(call('history.finish', { sessionId })).rejects.toThrow(
        `Sign in as dr-spool at 127.0.0.1:${port} to open this visit.`,
      );
      expect((await historyEntries()).map((e) => e.sessionId)).not.toContain(sessionId);
      // The same service, another provider: still not theirs.
      service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData, port });
      await useBearerPartner(core, service.url, 'dr-other');
      await expect(call('history.finish', { sessionId })).rejects.toThrow(
        `Sign in as dr-spool at 127.0.0.1:${port} to open this visit.`,
      );
      core.wake(); // the maintenance that resumes finishing visits, now
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await fetch(`${other.url}/__sandbox/sessions/${sessionId}`)).status).toBe(404);
      expect((await serviceCopyAt(service.url, sessionId)).status).not.toBe('completed');
      // Another provider on this laptop does not even see it (issue 29); its audio waits.
      expect((await historyEntries()).map((e) => e.sessionId)).not.toContain(sessionId);
      expect((await spooledCopy(dataDir, sessionId)).manifest.state).toBe('finishing');

      // Back as the provider it was recorded for: it finishes by itself, every byte once.
      await useBearerPartner(core, service.url, 'dr-spool');
      core.wake();
      const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
      expect(done.status).toBe('completed');
      const spooled = await spooledCopy(dataDir, sessionId);
      expect((await serviceCopyAt(service.url, sessionId)).pcm_sha256).toBe(spooled.sha256);
    } finally {
      await Promise.all([service.close(), other.close()]);
      rmSync(serviceData, { recursive: true, force: true });
    }
  });
});
