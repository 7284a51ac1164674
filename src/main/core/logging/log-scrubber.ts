import { classifyField } from './log-field-names';
import { REDACTED, scrubText } from './log-text-rules';
import type { SecretValues } from './secret-values';

/**
 * Turns a log call's fields into plain JSON that is safe to write: field names decide what is
 * kept (log-field-names.ts), kept text goes through the text rules (log-text-rules.ts).
 *
 * Only plain objects, arrays and Errors are walked. Any other object (a socket, a Buffer, a class
 * instance) is named, not walked: it can hold anything, in private fields or behind getters with
 * side effects, and a log line never needs its insides. Cycles, depth and width are bounded, and
 * nothing here throws: a log call must never break the code that makes it.
 */

export type Scrubbed = string | number | boolean | null | Scrubbed[] | { [key: string]: Scrubbed };

const MAX_DEPTH = 6;
const MAX_ITEMS = 50;
const MAX_STACK_FRAMES = 8;

export function scrubFields(
  fields: Record<string, unknown>,
  secrets: SecretValues,
): Record<string, Scrubbed> {
  try {
    const walked = walk(fields, 'other', secrets, new Set(), 0);
    return isRecord(walked) ? walked : { fields: walked };
  } catch {
    return { fields: '[could not be scrubbed]' };
  }
}

/** `parent`: what the nearest field name above this value allows ('text': its strings are kept). */
function walk(
  value: unknown,
  parent: 'text' | 'other',
  secrets: SecretValues,
  ancestors: Set<object>,
  depth: number,
): Scrubbed {
  switch (typeof value) {
    case 'string':
      return parent === 'text' ? scrubText(value, secrets) : REDACTED;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return null;
    case 'function':
      return '[function]';
    case 'symbol':
      return '[symbol]';
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (object instanceof Date) {
    return parent === 'text' && !Number.isNaN(object.getTime()) ? object.toISOString() : REDACTED;
  }
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) return `[${object.byteLength} bytes]`;
  const isError = object instanceof Error;
  if (!isError && !Array.isArray(object) && !isPlainObject(object)) {
    return `[${object.constructor?.name ?? 'object'}]`;
  }

  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      const items = object
        .slice(0, MAX_ITEMS)
        .map((item) => walk(item, parent, secrets, ancestors, depth + 1));
      if (object.length > MAX_ITEMS) items.push(`[${object.length - MAX_ITEMS} more]`);
      return items;
    }
    const out: Record<string, Scrubbed> = isError ? describeError(object, secrets) : {};
    let count = 0;
    for (const key of Object.keys(object)) {
      if (++count > MAX_ITEMS) {
        out['[more]'] = `${Object.keys(object).length - MAX_ITEMS} fields`;
        break;
      }
      const kind = classifyField(key);
      out[key] = kind === 'redact' ? REDACTED : walk(read(object, key), kind, secrets, ancestors, depth + 1);
    }
    if (isError && object.cause !== undefined && !('cause' in out)) {
      out.cause = walk(object.cause, 'text', secrets, ancestors, depth + 1);
    }
    return out;
  } finally {
    ancestors.delete(object);
  }
}

/**
 * An Error's class, message and where it came from. Its message is written (through the text
 * rules) because the app's own errors carry the sentence that says what failed; an error thrown
 * with request data in its message is the caller's to avoid, as callers in the core do.
 */
function describeError(error: Error, secrets: SecretValues): Record<string, Scrubbed> {
  const frames = (typeof error.stack === 'string' ? error.stack.split('\n') : [])
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, MAX_STACK_FRAMES)
    .map((line) => scrubText(line.trim(), secrets));
  return {
    error: scrubText(String(error.name), secrets),
    message: scrubText(String(error.message), secrets),
    ...(frames.length > 0 ? { stack: frames } : {}),
  };
}

/** A property read that cannot throw (getters, proxies). */
function read(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return '[unreadable]';
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isRecord(value: Scrubbed): value is Record<string, Scrubbed> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
