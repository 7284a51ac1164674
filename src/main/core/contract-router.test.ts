import { describe, expect, it } from 'vitest';
import { VERB_NAMES } from '../../shared/contract';
import { DEFAULT_SETTINGS, SETTING_LABELS } from '../../shared/settings';
import { createContractRouter, type VerbHandlers } from './contract-router';
import type { Logger } from './ports';
import type { VerbGatekeeper } from './privacy/verb-gatekeeper';
import { UserFacingError } from './user-facing-error';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, info: record, warn: record, error: record };
}

const appInfo = {
  name: 'Ambient Scribe',
  version: '0.0.0',
  mode: 'browser' as const,
  platform: 'linux',
  runtime: { node: '20' },
  dataDirectory: '/tmp/x',
};

/** Admits every call: these tests are of the router's own work (the gates: verb-gates.test.ts). */
const admitAll: VerbGatekeeper = { admit: async () => undefined };

function router(overrides: Partial<VerbHandlers> = {}, log = recordingLogger(), gatekeeper = admitAll) {
  // Verbs these tests do not call answer with an error if they ever are.
  const unused = Object.fromEntries(
    VERB_NAMES.map((verb) => [
      verb,
      () => {
        throw new Error(`${verb} is not used in this test`);
      },
    ]),
  ) as unknown as VerbHandlers;
  const handlers: VerbHandlers = {
    ...unused,
    'app.info': () => appInfo,
    'settings.get': () => DEFAULT_SETTINGS,
    'settings.set': (patch) => ({ ...DEFAULT_SETTINGS, ...patch }),
    ...overrides,
  };
  return createContractRouter(handlers, gatekeeper, log, SETTING_LABELS);
}

describe('the contract router', () => {
  it('answers a known verb with its value', async () => {
    expect(await router().dispatch('app.info', undefined)).toEqual({ ok: true, value: appInfo });
  });

  it('refuses a verb that is not in the contract', async () => {
    const result = await router().dispatch('shell.openExternal', 'file:///etc/passwd');
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_verb' } });
  });

  it('refuses a bad payload with a sentence naming the field as people see it', async () => {
    const result = await router().dispatch('settings.set', { authModel: 'kerberos' });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: 'Sign-in model must be one of standard, bearer, single_auth_token.',
        fields: [
          {
            field: 'authModel',
            message: 'Sign-in model must be one of standard, bearer, single_auth_token.',
          },
        ],
      },
    });
  });

  it('refuses unknown settings rather than storing them', async () => {
    const result = await router().dispatch('settings.set', { partnerToken: 'secret' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringContaining('partnerToken') },
    });
  });

  it('refuses a payload on a verb that takes none', async () => {
    expect(await router().dispatch('settings.get', { sneaky: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });

  it('asks the gatekeeper with the verb’s declared gate and the parsed payload before the handler runs', async () => {
    const asked: unknown[] = [];
    let ran = false;
    const refusing: VerbGatekeeper = {
      admit: async (gate, payload) => {
        asked.push([gate, payload]);
        if (gate.kind === 'owner') throw new UserFacingError('invalid_request', 'Not your visit.');
      },
    };
    const guarded = router(
      { 'notes.get': () => ((ran = true), { sessionId: 's', sections: [] }) as never },
      undefined,
      refusing,
    );
    expect(await guarded.dispatch('notes.get', { sessionId: 's1' })).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'Not your visit.' },
    });
    expect(ran).toBe(false);
    expect(asked).toEqual([
      [{ kind: 'owner', to: 'see and keep your edits of this note' }, { sessionId: 's1' }],
    ]);
    // An open verb goes on to its handler.
    expect(await guarded.dispatch('app.info', undefined)).toEqual({ ok: true, value: appInfo });
  });

  it('passes a handler’s user-facing error through', async () => {
    const result = await router({
      'settings.get': () => {
        throw new UserFacingError('forbidden', 'Not now.');
      },
    }).dispatch('settings.get', undefined);
    expect(result).toEqual({ ok: false, error: { code: 'forbidden', message: 'Not now.' } });
  });

  it('hides an unexpected failure’s details from the renderer and the log', async () => {
    const log = recordingLogger();
    const result = await router(
      {
        'settings.get': () => {
          throw new Error('patient Jane Doe DOB 1950-01-01 token abc.def.ghi');
        },
      },
      log,
    ).dispatch('settings.get', undefined);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    expect(JSON.stringify(result)).not.toContain('Jane');
    expect(log.lines.join('\n')).not.toMatch(/Jane|abc\.def/);
    expect(log.lines.join('\n')).toContain('settings.get');
  });
});
