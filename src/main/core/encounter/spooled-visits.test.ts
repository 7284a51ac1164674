import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import { silentLogger } from '../ports';
import { createAudioSpool } from '../spool/audio-spool';
import { key, spoolOptions } from '../spool/spool.test-support';
import { FakeClock } from '../testing/fake-clock';
import { createVisitSeal } from '../sealed/visit-seal';
import { createSpooledVisits } from './spooled-visits';

const OWNER: DeliveryTarget = {
  service: 'https://scribe.example.org',
  partnerId: 'clinic7',
  providerId: 'dr-a',
  model: 'bearer',
};
const visitSeal = createVisitSeal(key);

/** An interrupted visit's spool, sealed for OWNER as Start seals it, and the spooled visits over it. */
function interruptedVisit() {
  const options = spoolOptions();
  const sealed = visitSeal.seal(options.sessionId, { deliverTo: OWNER });
  createAudioSpool({ ...options, deliverTo: OWNER, sealed }).close();
  const spooled = createSpooledVisits({
    spool: { root: dirname(options.dir), key: async () => key, visitSeal: () => visitSeal },
    clock: new FakeClock(1_000),
    log: silentLogger,
    onResultsProgress: () => undefined,
    results: new Map(),
    polls: new Map(),
    isLive: () => false,
  });
  const manifestFile = join(options.dir, 'manifest.json');
  const editManifest = (change: (manifest: Record<string, unknown>) => Record<string, unknown>) =>
    writeFileSync(manifestFile, JSON.stringify(change(JSON.parse(readFileSync(manifestFile, 'utf8')))));
  return { spooled, editManifest, sealed };
}

describe('where a spooled visit goes (issue 39, item 6)', () => {
  it('is what its seal says, whatever the manifest’s deliverTo says', () => {
    const { spooled, editManifest } = interruptedVisit();
    expect(spooled.list()[0]?.deliverTo).toEqual(OWNER);
    editManifest((manifest) => ({ ...manifest, deliverTo: { ...OWNER, service: 'https://evil.example' } }));
    expect(spooled.list()[0]?.deliverTo).toEqual(OWNER);
  });

  it('is nowhere when the seal is deleted, damaged or another visit’s', () => {
    const { spooled, editManifest, sealed } = interruptedVisit();
    editManifest(({ sealed: _gone, ...manifest }) => manifest);
    expect(spooled.list()[0]).not.toHaveProperty('deliverTo');
    editManifest((manifest) => ({ ...manifest, sealed: `${sealed.slice(0, -4)}AAAA` }));
    expect(spooled.list()[0]).not.toHaveProperty('deliverTo');
    // Nor passed on to History, whose own seal stays (history-after-restart.ts).
    expect(spooled.list()[0]).not.toHaveProperty('sealed');
    const another = visitSeal.seal('another-session', {
      deliverTo: { ...OWNER, service: 'https://evil.example' },
    });
    editManifest((manifest) => ({ ...manifest, sealed: another }));
    expect(spooled.list()[0]).not.toHaveProperty('deliverTo');
    // The audio is still there, listed, for the retention sweep (nothing is lost by the refusal).
    expect(spooled.list()).toHaveLength(1);
  });
});
