/**
 * The command line, read once in every process: the main run and the role processes it starts
 * (`--role ...`) all take their parameters from here.
 */
import { parseArgs } from 'node:util';

export const { values } = parseArgs({
  options: {
    role: { type: 'string', default: 'main' },
    minutes: { type: 'string', default: '60' },
    speed: { type: 'string', default: '20' },
    'jitter-seconds': { type: 'string', default: '60' },
    url: { type: 'string' },
    target: { type: 'string' },
    /** Print only; leave docs/benchmarks.md alone (trial runs with other parameters). */
    'print-only': { type: 'boolean', default: false },
  },
});
export const MINUTES = Number(values.minutes);
export const SPEED = Number(values.speed);
export const JITTER_SECONDS = Number(values['jitter-seconds']);
