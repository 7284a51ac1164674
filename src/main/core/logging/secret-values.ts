import type { SecretBox } from '../secrets/secret-box';

/**
 * The secret values this process has seen (partner token, OIDC refresh and ID tokens, service
 * tokens, the spool key, browser mode's launch key), so the log scrubber can take them out of any
 * text, even inside a longer string or in a shape no pattern recognizes (an opaque refresh token).
 * The core registers each value as it learns it; the shells' scrubbed loggers read the registry.
 */
export interface SecretValues {
  /** Remembers a value; blank or shorter than MIN_SECRET_LENGTH is ignored. */
  add(value: string | null | undefined): void;
  /** `text` with every remembered value replaced by SECRET_MARK. */
  redact(text: string): string;
}

export const SECRET_MARK = '[secret]';
/**
 * Real secrets are long (the contract asks at least 8 characters of a partner token); a shorter
 * value would redact ordinary words all over the log.
 */
export const MIN_SECRET_LENGTH = 8;
/**
 * Service tokens are renewed about every 50 minutes, so the registry would grow forever in an app
 * left open; the oldest go first. An evicted service token expired long ago, and the JWT rule
 * still catches its shape.
 */
const MAX_REMEMBERED = 200;

export function createSecretValues(): SecretValues {
  const values = new Set<string>();
  // Longest first: a secret that contains another is replaced whole, not around the shorter one.
  let longestFirst: string[] = [];
  return {
    add(value) {
      const trimmed = value?.trim();
      if (!trimmed || trimmed.length < MIN_SECRET_LENGTH) return;
      // As written, and as it appears in a URL or a form body.
      for (const form of new Set([trimmed, encodeURIComponent(trimmed)])) {
        values.delete(form);
        values.add(form);
      }
      while (values.size > MAX_REMEMBERED) values.delete(values.values().next().value as string);
      longestFirst = [...values].sort((a, b) => b.length - a.length);
    },
    redact(text) {
      let out = text;
      for (const value of longestFirst) {
        if (out.includes(value)) out = out.split(value).join(SECRET_MARK);
      }
      return out;
    },
  };
}

/** A secret box that registers every value stored in it or read from it. */
export function rememberingSecretBox(box: SecretBox, values: SecretValues): SecretBox {
  return {
    persistence: box.persistence,
    ...(box.notice !== undefined ? { notice: box.notice } : {}),
    async get(name) {
      const value = await box.get(name);
      values.add(value);
      return value;
    },
    set(name, value) {
      values.add(value);
      return box.set(name, value);
    },
    delete: (name) => box.delete(name),
  };
}
