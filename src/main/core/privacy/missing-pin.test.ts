import { describe, expect, it } from 'vitest';
import { captureLog } from '../auth/testing/test-ports';
import { createMemorySecretBox, type SecretBox } from '../secrets/secret-box';
import { failClosedOnMissingPin } from './missing-pin';
import { pinGenerationInMemory } from './pin-generation';
import { createUnlockPins } from './unlock-pins';

const service = 'https://scribe.example.org';
const drA = { service, partnerId: 'acme', providerId: 'dr-a' };
const drB = { service, partnerId: 'acme', providerId: 'dr-b' };

/** The PIN store in `secrets`, as the app wraps it; `recorded` says whether the two have visits here. */
function pinsOn(secrets: SecretBox, recorded: { yet: boolean }) {
  return failClosedOnMissingPin(
    createUnlockPins({ secrets, generation: pinGenerationInMemory(), log: captureLog() }),
    { visitsHere: () => recorded.yet, log: captureLog() },
  );
}

/** One clinician's entry deleted from the store in the secrets file (a plain edit). */
async function deleteEntry(secrets: SecretBox, providerId: string): Promise<void> {
  const store = JSON.parse((await secrets.get('unlock-pins'))!) as { records: Record<string, unknown> };
  for (const key of Object.keys(store.records))
    if ((JSON.parse(key) as string[])[2] === providerId) delete store.records[key];
  await secrets.set('unlock-pins', JSON.stringify(store));
}

describe('a PIN missing for a clinician who recorded here (issue 39, item 2)', () => {
  it('after IT entered the partner token, only the PINs missing then may be chosen anew: one deleted later is still missing', async () => {
    const secrets = createMemorySecretBox();
    const recorded = { yet: false };
    const pins = pinsOn(secrets, recorded);
    // Each chose a PIN at their first sign-in, then recorded.
    await pins.set(drA, '2468');
    await pins.set(drB, '1357');
    recorded.yet = true;
    await deleteEntry(secrets, 'dr-b');
    expect(await pins.state(drB)).toEqual({ kind: 'blocked', reason: 'missing' });

    // IT enters the partner token: dr-b, whose PIN was missing then, chooses a new one.
    await pins.clearBlocked(service, 'acme');
    expect(await pins.state(drB)).toEqual({ kind: 'none' });
    await pins.set(drB, '9753');

    // Later in the same run both entries are deleted: neither reads as "choose a new PIN" (before,
    // IT's word for the partner let anyone choose one for both).
    await deleteEntry(secrets, 'dr-a');
    await deleteEntry(secrets, 'dr-b');
    expect(await pins.state(drA)).toEqual({ kind: 'blocked', reason: 'missing' });
    expect(await pins.state(drB)).toEqual({ kind: 'blocked', reason: 'missing' });
    await expect(pins.set(drA, '1111')).rejects.toThrow(/blocked PIN is not chosen anew/);

    // IT enters the token again: both choose anew.
    await pins.clearBlocked(service, 'acme');
    expect(await pins.state(drA)).toEqual({ kind: 'none' });
    expect(await pins.state(drB)).toEqual({ kind: 'none' });
  });
});
