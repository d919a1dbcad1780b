/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The account page's second-factor section (with `twoFactor` in the configuration): whether the
 * authenticator app is on; off, a button that starts setting it up, whose answer is this page with the QR
 * code, the key and a code field; the recovery codes of a confirmed app, shown once; on, how many codes
 * are left, a form that makes new ones with a code (shown once, the earlier ones stop working) and a form
 * that turns it off with a code. Plain forms, no script. Each form is an owner-present operation
 * (`sign-in/owner-present.ts`): a stale session is sent to sign in again and back to the page.
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
  /** Where the four forms post. */
  enrollUrl: string;
  confirmUrl: string;
  disableUrl: string;
  recoveryCodesUrl: string;
  /** Set up started (the enroll form's answer): the key and its QR code, an SVG document of authlib's. */
  setup?: { secret: string; qrSvg: string };
  /** The code typed for `setup` was refused (the confirm form's answer): shown at its field. */
  setupError?: boolean;
  /** Turned on just now, or new codes made (the confirm or recovery-codes form's answer): shown this once. */
  newRecoveryCodes?: readonly string[];
  /** A refused code of the turn-off form (`?error=IncorrectCode&form=two-factor`): shown at its field. */
  codeError?: boolean;
  /** A refused code of the new-codes form (`?error=IncorrectCode&form=recovery-codes`): shown at its field. */
  recoveryCodesError?: boolean;
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
        <CodeField
          id="totp-code"
          label={text.t("account.twoFactorCode")}
          autocomplete="one-time-code"
          error={params.setupError ? text.t("accountError.incorrectCodeSetup") : undefined}
        />
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

/** With the app on: the recovery codes left, and the code forms that make new ones and that turn it off. */
function OnForms({ params, csrfToken, text }: SectionProps) {
  return (
    <>
      <p class="muted">{text.t("account.recoveryCodesLeft", { count: params.recoveryCodes })}</p>
      <CodeForm
        action={params.recoveryCodesUrl}
        id="recovery-codes-code"
        button={text.t("account.newRecoveryCodes")}
        refused={params.recoveryCodesError === true}
        csrfToken={csrfToken}
        text={text}
      />
      <CodeForm
        action={params.disableUrl}
        id="totp-disable-code"
        button={text.t("account.twoFactorDisable")}
        refused={params.codeError === true}
        csrfToken={csrfToken}
        text={text}
      />
    </>
  );
}

/** A form that takes a code of the app or a recovery code, its refusal shown at the field. */
function CodeForm(props: { action: string; id: string; button: string; refused: boolean; csrfToken: string; text: Translator }) {
  const { text } = props;
  return (
    <form action={toSafeNavigationUrl(props.action)} method="post">
      <HiddenFields csrfToken={props.csrfToken} />
      <CodeField
        id={props.id}
        label={text.t("account.twoFactorDisableCode")}
        autocomplete="off"
        error={props.refused ? text.t("accountError.incorrectCode") : undefined}
      />
      <button type="submit" class="button button-neutral">
        {props.button}
      </button>
    </form>
  );
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
        <OnForms params={params} csrfToken={csrfToken} text={text} />
      ) : (
        <form action={toSafeNavigationUrl(params.enrollUrl)} method="post">
          <HiddenFields csrfToken={csrfToken} />
          <button type="submit" class="button button-neutral">
            {text.t("account.twoFactorEnable")}
          </button>
        </form>
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
    recoveryCodesUrl: `${url}/two-factor-recovery-codes`,
    setup: shown.setup,
    setupError: shown.setupError,
    newRecoveryCodes: shown.newRecoveryCodes,
    codeError: request.query.form === "two-factor" && request.query.error === "IncorrectCode",
    recoveryCodesError: request.query.form === "recovery-codes" && request.query.error === "IncorrectCode",
  };
  return {
    content: <TwoFactorSection params={params} csrfToken={page.csrfToken} text={page.text} />,
    // The turn-off form's field exists only while the app is on; otherwise the page says it at the top.
    errorShownInPlace: (params.on && params.codeError) || params.recoveryCodesError || params.setupError,
    // The page a confirm or new-codes form answers (no redirect: the codes are shown this once).
    done: shown.done,
  };
}
