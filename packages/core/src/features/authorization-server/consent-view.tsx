/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The authorization server's pages: the consent page (which client, where it goes back to, each scope in
 * words, who is signed in; Allow and Deny post the sealed request with the CSRF token), the device page
 * (type the code the device shows) and the page after a device decision. Plain forms, no script; every
 * text from the catalog but the app's own scope descriptions. Never framed (`pages/html.ts`).
 *
 * @module features/authorization-server/consent-view
 */
import { Filled, HiddenFields, renderDocument } from "../../pages/layout.js";
import { resolveTheme, toSafeNavigationUrl } from "../../pages/theme.js";
import type { Theme } from "../../types/config.js";
import type { MessageKey, Translator } from "../../types/i18n.js";

/** What every page of the server shows. */
interface PageBase {
  text: Translator;
  theme: Theme;
}

/** What the consent page shows. */
export interface ConsentPageParams extends PageBase {
  csrfToken: string;
  action: string;
  sealed: string;
  clientName: string;
  clientUri: string | null;
  /** The host the browser goes back to (absent for a device). */
  redirectHost?: string;
  /** The code the device showed (a device approval). */
  userCode?: string;
  scopes: ReadonlyArray<{ scope: string; description: string }>;
  account: string | null;
  /** A sensitive scope and a level-1 session: the page offers the sign-in with a second factor instead of Allow. */
  needsSecondFactor: boolean;
  stepUpUrl?: string;
}

const BUILT_IN = new Set(["openid", "profile", "email", "offline_access"]);

function scopeText(text: Translator, scope: { scope: string; description: string }): string {
  return BUILT_IN.has(scope.scope) ? text.t(`oauth.scope.${scope.scope}` as MessageKey) : scope.description;
}

function ConsentBody({ params }: { params: ConsentPageParams }) {
  const { text } = params;
  const client = <strong>{params.clientName}</strong>;
  return (
    <>
      <p>
        <Filled text={text.t("oauth.consent.lead")} values={{ client }} />
      </p>
      {params.userCode ? <p>{text.t("oauth.consent.device", { code: params.userCode })}</p> : null}
      {params.redirectHost ? <p>{text.t("oauth.consent.redirect", { host: params.redirectHost })}</p> : null}
      <h2>{text.t("oauth.consent.scopes")}</h2>
      <ul>
        {params.scopes.map((scope) => (
          <li key={scope.scope}>
            {scopeText(text, scope)} <code>{scope.scope}</code>
          </li>
        ))}
      </ul>
      {params.account ? <p>{text.t("oauth.consent.signedInAs", { account: params.account })}</p> : null}
      {params.needsSecondFactor ? (
        <div class="alert" role="alert">
          <p>{text.t("oauth.consent.secondFactor")}</p>
        </div>
      ) : null}
      <form action={toSafeNavigationUrl(params.action)} method="post">
        <HiddenFields csrfToken={params.csrfToken} />
        <input type="hidden" name="request" value={params.sealed} />
        {params.needsSecondFactor ? null : (
          <button type="submit" class="button" name="decision" value="allow">
            {text.t("oauth.consent.allow")}
          </button>
        )}
        <button type="submit" class="button button-neutral" name="decision" value="deny">
          {text.t("oauth.consent.deny")}
        </button>
      </form>
    </>
  );
}

/** Renders the consent page (a complete HTML document). */
export function renderConsentHtml(params: ConsentPageParams): string {
  const { text } = params;
  const title = text.t("oauth.consent.title");
  return renderDocument({
    title,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{title}</h1>
        <ConsentBody params={params} />
      </>
    ),
  });
}

/** What the device page shows: the form for the code, and why the last one was refused. */
export interface DevicePageParams extends PageBase {
  csrfToken: string;
  action: string;
  userCode?: string;
  invalid: boolean;
}

/** Renders the device page: "type the code your device shows". */
export function renderDeviceHtml(params: DevicePageParams): string {
  const { text } = params;
  const title = text.t("oauth.device.title");
  return renderDocument({
    title,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{title}</h1>
        <p>{text.t("oauth.device.lead")}</p>
        {params.invalid ? (
          <div class="alert" role="alert">
            <p>{text.t("oauth.device.invalid")}</p>
          </div>
        ) : null}
        <form action={toSafeNavigationUrl(params.action)} method="post">
          <HiddenFields csrfToken={params.csrfToken} />
          <label for="user_code">{text.t("oauth.device.code")}</label>
          <input
            id="user_code"
            name="user_code"
            type="text"
            autocomplete="off"
            autocapitalize="characters"
            spellcheck={false}
            required
            value={params.userCode ?? ""}
          />
          <button type="submit" class="button">
            {text.t("oauth.device.continue")}
          </button>
        </form>
      </>
    ),
  });
}

/** What the page after a device decision says. */
export interface DeviceDoneParams extends PageBase {
  outcome: "approved" | "denied" | "invalid";
}

/** Renders the page after a device decision: go back to the device (or: the code could not be used). */
export function renderDeviceDoneHtml(params: DeviceDoneParams): string {
  const { text } = params;
  const title = text.t("oauth.device.title");
  const key: MessageKey =
    params.outcome === "approved" ? "oauth.device.approved" : params.outcome === "denied" ? "oauth.device.denied" : "oauth.device.invalid";
  return renderDocument({
    title,
    text,
    theme: resolveTheme(params.theme),
    children: (
      <>
        <h1>{title}</h1>
        <p class="center">{text.t(key)}</p>
      </>
    ),
  });
}
