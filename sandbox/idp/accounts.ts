/**
 * The dev IdP's accounts: any username signs in (no password, this is a sandbox), and the display
 * name typed at sign-in is remembered so later ID tokens, including refreshed ones, carry it.
 * In memory only, like the rest of the IdP's state.
 */

/** Provider ids as the service would see them: short, printable, no spaces. */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const MAX_NAME_LENGTH = 200;

export type LoginInput = { ok: true; username: string; name?: string } | { ok: false; problem: string };

/** Validates the login form; the problem text is shown next to the username field. */
export function parseLoginInput(username: unknown, name: unknown): LoginInput {
  const user = typeof username === 'string' ? username.trim() : '';
  if (!user) return { ok: false, problem: 'Enter a username, for example dr-demo.' };
  if (!USERNAME.test(user)) {
    return {
      ok: false,
      problem:
        'Use 1 to 64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit.',
    };
  }
  const display = typeof name === 'string' ? name.trim().slice(0, MAX_NAME_LENGTH) : '';
  return display ? { ok: true, username: user, name: display } : { ok: true, username: user };
}

export class DevAccounts {
  readonly #names = new Map<string, string>();

  remember(username: string, name: string | undefined): void {
    if (name) this.#names.set(username, name);
  }

  /** The claims released for `sub`; `name` only when one was given at sign-in. */
  claims(sub: string): { sub: string; name?: string } {
    const name = this.#names.get(sub);
    return name ? { sub, name } : { sub };
  }
}
