/**
 * The HTML pages of the demo's OpenID Provider: its login page and its error page. Plain HTML forms,
 * so they work without scripts; every value is escaped.
 */

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color-scheme:light dark}
form{display:grid;gap:.75rem}input{font:inherit;padding:.4rem}button{font:inherit;padding:.45rem}
.error{color:#b91c1c}.muted{opacity:.75;font-size:.9rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** What the login page shows. */
export interface LoginPageParams {
  /** The interaction id: the form posts to `/interaction/<uid>`. */
  uid: string;
  /** The client asking for the sign-in. */
  clientId: string;
  /** The username typed before, when the page is shown again. */
  username?: string;
  /** Why the last attempt was refused. */
  error?: string;
}

/** The login page: any username signs in (there are no passwords: it is a development OP). */
export function loginPage({ uid, clientId, username = "", error }: LoginPageParams): string {
  return page(
    "Demo OpenID Provider",
    `<h1>Demo OpenID Provider</h1>
<p><strong>${escapeHtml(clientId)}</strong> asks you to sign in.</p>
<p class="muted">A development OpenID Provider started with the demo: any username works, no password.
"Ada Lovelace" signs in as <code>ada-lovelace@example.com</code>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${encodeURIComponent(uid)}">
<label>Username <input name="login" value="${escapeHtml(username)}" autocomplete="username" required autofocus></label>
<button type="submit" name="action" value="allow">Sign in</button>
<button type="submit" name="action" value="deny" formnovalidate>Deny</button>
</form>`,
  );
}

/** The OP's error page (an unknown client, a wrong redirect URI, an expired interaction, …). */
export function errorPage(error: string, description: string): string {
  return page("Demo OpenID Provider: error", `<h1>${escapeHtml(error)}</h1><p>${escapeHtml(description)}</p>`);
}
