/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page's second-factor section (with `twoFactor` in the configuration): whether the
 * authenticator app is on; off, a button that starts setting it up, whose answer is this page with the QR
 * code, the key and a code field; the recovery codes of a confirmed app, shown once; on, how many codes
 * are left and a form that turns it off with a code. Plain forms, no script. Each form is an owner-present
 * operation (`sign-in/owner-present.ts`): a stale session is sent to sign in again and back to the page.
 *
 * There is no operation that makes new recovery codes by themselves: turning the app off and on again
 * does, and the section says so.
 *
 * The page is the account feature's; this section is added to it through `FeatureDefinition.accountSection`,
 * and its forms are this feature's operations (`account-forms.ts`).
 *
 * @module features/two-factor/account-section
 */
import { HiddenFields } from "../../pages/layout.js";
import { toSafeNavigationUrl } from "../../pages/theme.js";
import { accountUrl } from "../../sign-in/account-form.js";
import type { Translator } from "../../types/i18n.js";
import type { AccountSectionView, InternalOptions, RequestInternal } from "../../types/internal.js";
import { operation, shownOn } from "./account-forms.js";

/** The second-factor part of the account page. */
export interface AccountPageTwoFactor {
  /** The authenticator app is on. */
  on: boolean;
  /** Recovery codes not used yet (0 when off). */
  recoveryCodes: number;
  /** Where the three forms post. */
  enrollUrl: string;
  confirmUrl: string;
  disableUrl: string;
  /** Set up started (the enroll form's answer): the key and its QR code, an SVG document of authlib's. */
  setup?: { secret: string; qrSvg: string };
  /** Turned on just now (the confirm form's answer): the recovery codes, shown this once. */
  newRecoveryCodes?: readonly string[];
  /** A refused code of these forms (`?error=IncorrectCode&form=two-factor`): shown in the section. */
  codeError?: boolean;
}

/** An SVG document as an image URL (the pages' CSP allows `data:` images; no markup of it enters the page). */
function svgImageUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

function CodeField({ id, label, error, autocomplete }: { id: string; label: string; error?: string; autocomplete: string }) {
  const errorId = `${id}-error`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name="code"
        type="text"
        inputMode={autocomplete === "one-time-code" ? "numeric" : undefined}
        autocomplete={autocomplete}
        required
        maxLength={32}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <p id={errorId} class="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Setup({
  params,
  csrfToken,
  text,
}: SectionProps & { params: AccountPageTwoFactor & { setup: { secret: string; qrSvg: string } } }) {
  return (
    <>
      <p id="totp-scan">{text.t("account.twoFactorScan")}</p>
      <img class="qr" src={svgImageUrl(params.setup.qrSvg)} alt={text.t("account.twoFactorQrAlt")} width={200} height={200} />
      <p>
        {text.t("account.twoFactorKey")} <code id="totp-secret">{params.setup.secret}</code>
      </p>
      <form action={toSafeNavigationUrl(params.confirmUrl)} method="post">
        <HiddenFields csrfToken={csrfToken} />
        <CodeField id="totp-code" label={text.t("account.twoFactorCode")} autocomplete="one-time-code" />
        <button type="submit" class="button">
          {text.t("account.twoFactorConfirm")}
        </button>
      </form>
    </>
  );
}

interface SectionProps {
  params: AccountPageTwoFactor;
  csrfToken: string;
  text: Translator;
}

/** The second-factor section of the account page. */
export function TwoFactorSection({ params, csrfToken, text }: SectionProps) {
  const { setup } = params;
  return (
    <section class="stack" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">{text.t("account.twoFactorSection")}</h2>
      <p class="muted">{text.t(params.on ? "account.twoFactorOn" : "account.twoFactorOff")}</p>
      {params.newRecoveryCodes ? (
        <div class="notice" role="status">
          <p>{text.t("account.recoveryCodesLead")}</p>
          <ul class="codes">
            {params.newRecoveryCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {setup ? (
        <Setup params={{ ...params, setup }} csrfToken={csrfToken} text={text} />
      ) : params.on ? (
        <>
          <p class="muted">
            {text.t("account.recoveryCodesLeft", { count: params.recoveryCodes })} {text.t("account.newRecoveryCodes")}
          </p>
          <form action={toSafeNavigationUrl(params.disableUrl)} method="post">
            <HiddenFields csrfToken={csrfToken} />
            <CodeField
              id="totp-disable-code"
              label={text.t("account.twoFactorDisableCode")}
              autocomplete="off"
              error={params.codeError ? text.t("accountError.incorrectCode") : undefined}
            />
            <button type="submit" class="button button-neutral">
              {text.t("account.twoFactorDisable")}
            </button>
          </form>
        </>
      ) : (
        <>
          {params.codeError ? (
            <p class="field-error" role="alert">
              {text.t("accountError.incorrectCodeSetup")}
            </p>
          ) : null}
          <form action={toSafeNavigationUrl(params.enrollUrl)} method="post">
            <HiddenFields csrfToken={csrfToken} />
            <button type="submit" class="button button-neutral">
              {text.t("account.twoFactorEnable")}
            </button>
          </form>
        </>
      )}
    </section>
  );
}

/**
 * The section for the request's signed-in user: the status, the forms, what a form of it just made (its
 * answer is the page itself), and a refused code shown next to its field.
 */
export async function twoFactorAccountSection(
  options: InternalOptions,
  request: RequestInternal,
  page: { text: Translator; csrfToken: string },
): Promise<AccountSectionView> {
  const status = (await operation(options, "getTwoFactorStatus")(options, request)).body as { totp: boolean; recoveryCodes: number };
  const url = accountUrl(options);
  const shown = shownOn(request);
  const params: AccountPageTwoFactor = {
    on: status.totp,
    recoveryCodes: status.recoveryCodes,
    enrollUrl: `${url}/two-factor-enroll`,
    confirmUrl: `${url}/two-factor-confirm`,
    disableUrl: `${url}/two-factor-disable`,
    ...shown,
    codeError: request.query.form === "two-factor" && request.query.error === "IncorrectCode",
  };
  return {
    content: <TwoFactorSection params={params} csrfToken={page.csrfToken} text={page.text} />,
    errorShownInPlace: params.codeError,
    // The page a confirm form answers says it is on (no redirect: the codes are shown this once).
    done: shown.newRecoveryCodes ? "two-factor-on" : undefined,
  };
}
