import { spawn, type ChildProcess } from 'node:child_process';
import { coreSpeed, usableCores } from './machine-capacity';

/**
 * A machine busy with something else (the EHR, a virus scan): `count` processes that spin a core
 * each until stopped. They are the test's, so they end with it even if it fails.
 */
export function keepBusy(count: number): { stop(): void } {
  const spinners: ChildProcess[] = [];
  for (let k = 0; k < count; k++) {
    spinners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  }
  return {
    stop() {
      for (const spinner of spinners) spinner.kill('SIGKILL');
    },
  };
}

/**
 * Whether two busy processes still leave Chromium's fake devices enough CPU to judge the app by:
 * only on two full cores. On less (a slower machine, scripts/slow-machine.sh's quota) they get a
 * third of a core or less, and the fake microphone's capture is then 10–30 ms of zeros in every
 * 100 ms (measured: docs/reliability.md, "End keeps what the microphone heard"), which lines up
 * with nothing; the app's End cannot be judged on it, whatever it does.
 */
export function loadLeavesFakeDevicesFed(): boolean {
  return usableCores() * coreSpeed() >= 1.9;
}

export const FAKE_DEVICES_STARVE =
  'less than two full cores: two busy processes starve Chromium’s fake devices (docs/reliability.md); the quiet spec still runs';
