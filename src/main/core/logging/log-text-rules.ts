import type { SecretValues } from './secret-values';

/**
 * The rules for text that reaches the log: every message, every kept field string, every error
 * message and stack. They remove what can be recognized in free text; what cannot (clinical
 * words) is kept out by the field rules (log-field-names.ts) and by callers not writing it into
 * messages.
 */

export const REDACTED = '[redacted]';
/** Longer text is cut (after the rules ran, so a cut never leaves half a secret unrecognized). */
export const MAX_TEXT_LENGTH = 2_000;

/** A JWT, or the start of one (base64url of `{"`): service tokens, ID tokens, logout hints. */
const JWT = /eyJ[\w-]{6,}(?:\.[\w-]*){0,2}/g;
/** An Authorization header value written out. Long enough not to eat "Bearer partners". */
const BEARER = /\bBearer\s+[\w.~+/=-]{12,}/gi;
/** Cheap test before the key-value rule, which is the costliest. */
const SECRET_WORD = /token|secret|passw|authoriz|cookie|verifier|api.?key|credential/i;
/**
 * `name: value` or `name=value` where the name is a credential's: sdp_service_token: …,
 * "partner_token":"…", Authorization: Bearer …, code_verifier=…, Cookie: …. The match starts at
 * the keyword and allows a bounded rest of the name, so the regex stays linear on hostile text.
 */
const SECRET_ASSIGNMENT =
  /(token|secret|passw(?:or)?d|authorization|cookie|verifier|api[_-]?key|credential)([\w.-]{0,40}["']?\s*[:=]\s*)("[^"]*"|'[^']*'|(?:(?:Bearer|Basic)\s+)?[^\s"'&,;)}\]]+)/gi;
/** OpenID Connect and browser-mode parameters outside a full query string (a form body, a log of one). */
const OAUTH_PARAMETER = /(^|[\s&?#;,])(code|state|nonce|key|session_state|id_token_hint)=[^\s&"'#]+/gi;
/**
 * A query string or a fragment with parameters: the OIDC redirect's code= and state=, browser
 * mode's key=. Stripped whole: the path says which call it was, the parameters are never needed.
 */
const QUERY = /([?#])[^\s"'<>?#]*=[^\s"'<>]*/g;
/** user:password@ in a URL. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/**
 * A calendar date on its own (1957-03-14, 14/03/1957): in this app most likely a date of birth.
 * Timestamps (2024-05-01T10:00:00Z) stay, they say when something happened.
 */
const CALENDAR_DATE =
  /\b(?:(?:1[89]|20)\d\d-[01]\d-[0-3]\d(?![T\d:])|[0-3]?\d[/.][01]?\d[/.](?:1[89]|20)\d\d)\b/g;
/** Line breaks would let text forge log lines. */
const LINE_BREAKS = /[\r\n\u2028\u2029]+/g;

export function scrubText(text: string, secrets: SecretValues): string {
  let out = secrets.redact(text);
  if (SECRET_WORD.test(out)) out = out.replace(SECRET_ASSIGNMENT, `$1$2${REDACTED}`);
  out = out.replace(BEARER, `Bearer ${REDACTED}`).replace(JWT, '[jwt]');
  if (out.includes('=')) {
    out = out
      .replace(OAUTH_PARAMETER, `$1$2=${REDACTED}`)
      .replace(QUERY, (_match, mark: string) => `${mark}[${mark === '?' ? 'query' : 'fragment'} removed]`);
  }
  if (out.includes('@')) out = out.replace(USERINFO, `$1${REDACTED}@`);
  out = out.replace(CALENDAR_DATE, '[date]');
  out = out.replace(LINE_BREAKS, ' ⏎ ');
  return out.length > MAX_TEXT_LENGTH ? `${out.slice(0, MAX_TEXT_LENGTH)}… (cut)` : out;
}
