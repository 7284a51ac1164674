import { spawn, type ChildProcess } from 'node:child_process';

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
