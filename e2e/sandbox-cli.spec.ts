import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';

/**
 * `npm run sandbox` as a person or another program starts it: one line SANDBOX_URL=… when ready,
 * loopback only, and the service answering over real HTTP. (No browser needed.)
 */
test('npm run sandbox prints SANDBOX_URL and serves the interface on 127.0.0.1', async () => {
  const child = spawn(
    process.execPath,
    ['scripts/run-built.mjs', 'sandbox', '--port', '0', '--time-scale', '0.5', '--asr', 'energy'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    const stdout = createInterface({ input: child.stdout });
    const [line] = (await once(stdout, 'line')) as [string];
    expect(line).toMatch(/^SANDBOX_URL=http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('SANDBOX_URL='.length);

    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        partner_id: 'demo-bearer',
        partner_token: 'sandbox-bearer-partner-token',
        provider_id: 'dr-cli',
      }),
    });
    expect(login.status).toBe(401);
    expect(await login.json()).toEqual({
      code: 401,
      message: expect.stringMatching(/^provider_not_registered: /),
    });

    const discovery = await fetch(`${url}/idp/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect((await discovery.json()) as { issuer: string }).toMatchObject({ issuer: `${url}/idp` });
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

test('npm run sandbox refuses a bad option with a sentence naming it', async () => {
  const child = spawn(process.execPath, ['scripts/run-built.mjs', 'sandbox', '--time-scale', 'fast'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  expect(code).toBe(2);
  expect(stderr).toContain('--time-scale must be a positive number');
});
