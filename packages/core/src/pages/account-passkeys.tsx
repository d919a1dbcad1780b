/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page's passkeys section: each passkey with its name, when it was added and last used, a
 * rename form and a remove form (plain forms), and an "Add a passkey" button run by the library's passkey
 * script (`<basePath>/webauthn-script`). Adding and removing need a recent sign-in: a refused form, and a
 * refused add, send the browser to sign in again and back to the page.
 *
 * @module pages/account-passkeys
 */
import type { Translator } from "../types/i18n.js";
import { MAX_PASSKEY_NAME_LENGTH } from "../webauthn/passkey-name.js";
import { HiddenFields, PasskeyStatus, passkeyMessages } from "./layout.js";
import { toSafeNavigationUrl } from "./theme.js";

/** A passkey as the account page lists it. */
export interface AccountPagePasskey {
  id: string;
  name: string;
  /** ISO 8601, or `null` when unknown. */
  createdAt: string | null;
  /** ISO 8601, or `null` when never used. */
  lastUsedAt: string | null;
}

/** The passkeys part of the account page (absent without a passkey provider). */
export interface AccountPagePasskeys {
  list: readonly AccountPagePasskey[];
  /** Where the rename and remove forms post; absent when the adapter cannot rename or remove passkeys. */
  renameUrl?: string;
  removeUrl?: string;
  /** The "Add a passkey" button's routes: the options, the callback, the CSRF token. */
  optionsUrl: string;
  callbackUrl: string;
  csrfUrl: string;
  /** Where a new passkey's registration comes back to (the page, saying it was added). */
  addedUrl: string;
  /** Where a refused add sends the browser: the sign-in page, coming back to this page. */
  reauthUrl: string;
}

/** `iso` as a date of the page's language, or `undefined`. */
function dateOf(text: Translator, iso: string | null): string | undefined {
  if (!iso) return undefined;
  try {
    return new Intl.DateTimeFormat(text.locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(iso));
  } catch {
    return iso.slice(0, 10);
  }
}

function PasskeyItem({ passkey, index, params, csrfToken, text }: { passkey: AccountPagePasskey; index: number } & SectionProps) {
  const created = dateOf(text, passkey.createdAt);
  const used = dateOf(text, passkey.lastUsedAt);
  const nameId = `passkey-name-${index}`;
  return (
    <li class="stack">
      <strong>{passkey.name}</strong>
      <span class="muted">
        {created ? `${text.t("account.passkeyAdded", { date: created })} · ` : null}
        {used ? text.t("account.passkeyLastUsed", { date: used }) : text.t("account.passkeyNeverUsed")}
      </span>
      {params.renameUrl ? (
        <form action={toSafeNavigationUrl(params.renameUrl)} method="post">
          <HiddenFields csrfToken={csrfToken} />
          <input type="hidden" name="id" value={passkey.id} />
          <div class="field">
            <label for={nameId}>{text.t("account.passkeyNewName", { name: passkey.name })}</label>
            <input id={nameId} name="name" type="text" required maxLength={MAX_PASSKEY_NAME_LENGTH} value={passkey.name} />
          </div>
          <button type="submit" class="button button-neutral">
            {text.t("account.renamePasskey")}
          </button>
        </form>
      ) : null}
      {params.removeUrl ? (
        <form action={toSafeNavigationUrl(params.removeUrl)} method="post">
          <HiddenFields csrfToken={csrfToken} />
          <input type="hidden" name="id" value={passkey.id} />
          <button type="submit" class="button button-neutral" aria-label={text.t("account.removePasskeyLabel", { name: passkey.name })}>
            {text.t("account.removePasskey")}
          </button>
        </form>
      ) : null}
    </li>
  );
}

interface SectionProps {
  params: AccountPagePasskeys;
  csrfToken: string;
  text: Translator;
}

/** The passkeys section of the account page. */
export function PasskeysSection({ params, csrfToken, text }: SectionProps) {
  const count = params.list.length;
  return (
    <section class="stack" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">{text.t("account.passkeysSection")}</h2>
      <p class="muted">
        {count === 0 ? text.t("account.noPasskeys") : count === 1 ? text.t("account.onePasskey") : text.t("account.passkeys", { count })}
      </p>
      {count > 0 ? (
        <ul class="methods stack">
          {params.list.map((passkey, index) => (
            <PasskeyItem key={passkey.id} passkey={passkey} index={index} params={params} csrfToken={csrfToken} text={text} />
          ))}
        </ul>
      ) : null}
      <div
        class="stack"
        data-authlib-webauthn=""
        data-options-url={params.optionsUrl}
        data-callback-url={params.callbackUrl}
        data-csrf-url={params.csrfUrl}
        data-csrf-token={csrfToken}
        data-redirect-to={params.addedUrl}
        data-reauth-url={params.reauthUrl}
        data-conditional-ui="false"
        {...passkeyMessages(text)}
      >
        <button type="button" class="button" data-webauthn-add="">
          {text.t("account.addPasskey")}
        </button>
        <PasskeyStatus text={text} />
      </div>
    </section>
  );
}
