import { z } from 'zod';

/**
 * zod compiles object parsers with `new Function` where it may, and finds out by trying. Under the
 * renderer's CSP (no 'unsafe-eval') the try fails quietly, but Chromium still reports it as a CSP
 * violation on every load, which would hide a real one. zod's interpreter checks the same without
 * eval. main.tsx imports this before anything that parses.
 */
z.config({ jitless: true });
