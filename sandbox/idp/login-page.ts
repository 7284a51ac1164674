/**
 * The dev IdP's pages: a sign-in form (username and display name, no password) and an error page.
 * Plain server-rendered HTML, no script; every field has a visible label, errors are announced.
 */

export interface LoginPageModel {
  /** Where the form posts. */
  action: string;
  clientId: string;
  username?: string;
  name?: string;
  /** Validation problem with the username, shown next to the field. */
  problem?: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * No script and no external resources. form-action is deliberately absent: browsers apply it to
 * the redirects that follow the form post too, and those end at the app's loopback port.
 */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; display: grid; place-items: center; min-height: 100vh; background: #f4f6f8; color: #1b1f23; }
  main { background: #fff; padding: 2rem; border-radius: 8px; max-width: 26rem; width: 100%; box-shadow: 0 1px 4px rgb(0 0 0 / 15%); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  input { display: block; width: 100%; box-sizing: border-box; font: inherit; padding: 0.5rem; margin-top: 0.25rem; border: 1px solid #6a737d; border-radius: 4px; }
  input:focus-visible, button:focus-visible { outline: 3px solid #0366d6; outline-offset: 2px; }
  .hint { color: #4a5159; font-size: 0.9rem; margin: 0.25rem 0 0; }
  .error { color: #b00020; font-weight: 600; margin: 0.25rem 0 0; }
  button { margin-top: 1.5rem; font: inherit; padding: 0.6rem 1.2rem; border: 0; border-radius: 4px; background: #0366d6; color: #fff; cursor: pointer; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function renderLoginPage(model: LoginPageModel): string {
  const invalid = model.problem !== undefined;
  const usernameDescribedBy = invalid ? 'username-error username-hint' : 'username-hint';
  const body = `<h1>Sign in</h1>
<p>Sandbox identity provider, signing in to <strong>${escapeHtml(model.clientId)}</strong>.
Development sign-in: there is no password.</p>
<form method="post" action="${escapeHtml(model.action)}" novalidate>
  <label for="username">Username</label>
  <input id="username" name="username" type="text" required autocomplete="username" autocapitalize="none" spellcheck="false"
    value="${escapeHtml(model.username ?? '')}" aria-describedby="${usernameDescribedBy}"${invalid ? ' aria-invalid="true"' : ''} autofocus>
  <p class="hint" id="username-hint">Your provider id, for example dr-demo.</p>
  ${invalid ? `<p class="error" id="username-error" role="alert">${escapeHtml(model.problem ?? '')}</p>` : ''}
  <label for="name">Display name <span class="hint">(optional)</span></label>
  <input id="name" name="name" type="text" autocomplete="name" value="${escapeHtml(model.name ?? '')}"
    aria-describedby="name-hint">
  <p class="hint" id="name-hint">Shown in the app, for example Dr. Dana Demo.</p>
  <button type="submit">Sign in</button>
</form>`;
  return layout('Sign in – Ambient Scribe sandbox', body);
}

export function renderErrorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p role="alert">${escapeHtml(message)}</p>`);
}
