/**
 * The second factor (docs/two-factor.md): the second step of a sign-in (`GET <basePath>/two-factor` its
 * page, `POST` the step itself, `second-step.ts`) and the signed-in user's settings (`/enroll`,
 * `/confirm`, `/disable`, `/recovery-codes`, `/status`, `settings.ts`, answered as JSON). Turned on by `twoFactor` in the
 * configuration; its code loads with the first request to it.
 *
 * @module features/two-factor
 */

import { TwoFactorExpired, UnknownAction } from "../../errors.js";
import { accountFormRefusal, formNeeds } from "../../sign-in/account-form.js";
import type { FeatureDefinition, InputOf, OperationDeclaration } from "../../types/operation.js";
import { defineFeature, defineOperation, lazyHandler } from "../define.js";
import type { AssuranceAnswer } from "./assurance.js";
import { twoFactorAdapterNeeds, twoFactorConfigError } from "./config-check.js";
import { assuranceInput, codeInput, secondStepInput } from "./input.js";
import { TWO_FACTOR_LIMITS } from "./limits.js";
import { twoFactorMessages } from "./messages.js";
import type { TwoFactorApi } from "./types.js";

export type { TotpEnrollment, TwoFactorApi, TwoFactorRateLimits, TwoFactorStatus } from "./types.js";

const settings = () => import("./settings.js");
const gate = () => import("./gate.js");
const secondStep = () => import("./second-step.js");
const _secondStep = () => import("./second-step.js");
const accountForms = () => import("./account-forms.js");

/**
 * A form of this feature's section of the account page: back to the page on a refusal, a wrong code shown
 * next to its field (`form=two-factor`).
 */
function accountForm(
  name: string,
  path: string,
  handler: "enrollForm" | "confirmForm" | "disableForm" | "regenerateForm",
  ownerPresent: "enrollTotp" | "confirmTotp" | "disableTotp" | "regenerateRecoveryCodes",
  // The form whose field shows a refused code (`?form=`): the new-codes form has its own.
  form = "two-factor",
) {
  return {
    name,
    method: "POST",
    path: `account/${path}`,
    needs: { ...formNeeds, ownerPresent },
    presentation: (options, request, error) => accountFormRefusal(options, request, error, form),
    handler: lazyHandler(accountForms, handler),
  } satisfies OperationDeclaration;
}

/** The audit row of each change of the second factor (`twoFactorChanged`). */
const AUDITED_CHANGES = {
  enabled: "twoFactorEnabled",
  disabled: "twoFactorDisabled",
  recoveryCodesCreated: "recoveryCodesCreated",
} as const;

/** The second step itself (`auth.api.verifyTwoFactor`): a code, or a passkey's response. */
export const verifyTwoFactor = defineOperation({
  name: "verifyTwoFactor",
  method: "POST",
  path: "two-factor",
  needs: { csrf: "mint" },
  presentation: async (options, request, error) => (await secondStep()).secondStepRefusal(options, request, error),
  input: secondStepInput,
  handler: lazyHandler(secondStep, "completeSecondStep"),
});

export const enrollTotp = defineOperation({
  name: "enrollTotp",
  method: "POST",
  path: "two-factor/enroll",
  needs: { csrf: "mint", ownerPresent: "enrollTotp" },
  presentation: "json",
  handler: lazyHandler(settings, "enroll"),
});

export const confirmTotp = defineOperation({
  name: "confirmTotp",
  method: "POST",
  path: "two-factor/confirm",
  needs: { csrf: "mint", ownerPresent: "confirmTotp" },
  presentation: "json",
  input: codeInput,
  handler: lazyHandler(settings, "confirm"),
});

export const disableTotp = defineOperation({
  name: "disableTotp",
  method: "POST",
  path: "two-factor/disable",
  needs: { csrf: "mint", ownerPresent: "disableTotp" },
  presentation: "json",
  input: codeInput,
  handler: lazyHandler(settings, "disable"),
});

/** New recovery codes (`auth.api.regenerateRecoveryCodes`), with a code: the earlier ones stop working. */
export const regenerateRecoveryCodes = defineOperation({
  name: "regenerateRecoveryCodes",
  method: "POST",
  path: "two-factor/recovery-codes",
  needs: { csrf: "mint", ownerPresent: "regenerateRecoveryCodes" },
  presentation: "json",
  input: codeInput,
  handler: lazyHandler(settings, "regenerateRecoveryCodes"),
});

export const getTwoFactorStatus = defineOperation({
  name: "getTwoFactorStatus",
  method: "GET",
  path: "two-factor/status",
  needs: { csrf: "mint" },
  presentation: "json",
  handler: lazyHandler(settings, "status"),
});

/**
 * Step-up (`auth.api.requireRecentAuth`): how the session was signed in to, as JSON, at the path it always
 * had. A session's fact: on in every configuration, second factors or not (its own `enabled`).
 */
export const sessionAssurance: OperationDeclaration<InputOf<typeof assuranceInput>, AssuranceAnswer> = {
  name: "sessionAssurance",
  method: "GET",
  path: "two-factor/assurance",
  enabled: () => true,
  presentation: "json",
  input: assuranceInput,
  handler: lazyHandler(() => import("./assurance.js"), "assurance"),
};

/** Its methods of `auth.api` (`TwoFactorApi`), each running its operation in process. */
const twoFactorApi = {
  enrollTotp:
    (run): TwoFactorApi["enrollTotp"] =>
    (request) =>
      run.data(request, enrollTotp),
  confirmTotp:
    (run): TwoFactorApi["confirmTotp"] =>
    (request, input) =>
      run.data(request, confirmTotp, { code: input?.code }),
  disableTotp:
    (run): TwoFactorApi["disableTotp"] =>
    async (request, input) =>
      void (await run.call(request, disableTotp, { code: input?.code })),
  regenerateRecoveryCodes:
    (run): TwoFactorApi["regenerateRecoveryCodes"] =>
    (request, input) =>
      run.data(request, regenerateRecoveryCodes, { code: input?.code }),
  getTwoFactorStatus:
    (run): TwoFactorApi["getTwoFactorStatus"] =>
    (request) =>
      run.data(request, getTwoFactorStatus),
  verifyTwoFactor:
    (run): TwoFactorApi["verifyTwoFactor"] =>
    (request, input) =>
      run.redirect(request, verifyTwoFactor, { code: input?.code }),
  requireRecentAuth:
    (run): TwoFactorApi["requireRecentAuth"] =>
    async (request, input) => {
      const { maxAge, aal = 1 } = { ...input };
      if (!(Number.isFinite(maxAge) && maxAge >= 0) || (aal !== 1 && aal !== 2))
        throw new TypeError("requireRecentAuth needs `maxAge` (seconds, 0 or more) and `aal` 1 or 2.");
      const { userId, assurance } = await run.data(request, sessionAssurance, { maxAge, aal });
      // With a requirement, the route answers the assurance or refuses: none is authlib's own bug.
      if (!assurance) throw new UnknownAction("The session's assurance was not answered.");
      return { userId, ...assurance };
    },
} satisfies FeatureDefinition["api"];

export const twoFactorFeature = defineFeature({
  name: "two-factor",
  enabled: (config) => Boolean(config.twoFactor),
  turnedOnBy: "twoFactor",
  // Its section of `rateLimit` (`rateLimit.twoFactor`) and the defaults.
  rateLimits: { twoFactor: TWO_FACTOR_LIMITS },
  messages: twoFactorMessages,
  // Its part of the configuration, checked when the instance is made, and the adapter methods it needs.
  check: twoFactorConfigError,
  adapterNeeds: twoFactorAdapterNeeds,
  // A sign-in that waited too long for its second step (or began in another browser) starts again.
  signInErrors: { TwoFactorExpired: "signinError.twoFactorExpired" },
  // Turning the app on or off is audited; a refused code at the second step, or turning it on or off, is a
  // failed second factor (a wrong code turning it off may be someone who holds the session but not the app).
  audit: {
    events: {
      twoFactorChanged: (message) => ({ type: AUDITED_CHANGES[message.change], userId: message.userId, provider: null }),
    },
    failures: {
      // Where a code is checked: the second step, the settings, and the account page's forms that run them.
      routes: [
        "two-factor",
        "two-factor/confirm",
        "two-factor/disable",
        "two-factor/recovery-codes",
        "account/two-factor-confirm",
        "account/two-factor-disable",
        "account/two-factor-recovery-codes",
      ],
      type: "twoFactorFailed",
    },
  },
  // Its section of the account page: the status, turning the app on (key, QR code, recovery codes) and off.
  accountSection: {
    notices: {
      "two-factor-on": "account.done.twoFactorOn",
      "two-factor-off": "account.done.twoFactorOff",
      "recovery-codes-new": "account.done.recoveryCodesNew",
    },
    errors: { TwoFactorAlreadyEnabled: "accountError.twoFactorAlreadyOn", TwoFactorNotEnabled: "accountError.twoFactorNotOn" },
    render: async (options, request, page) => (await import("./account-section.js")).twoFactorAccountSection(options, request, page),
  },
  // Its error types that are a user's own failure (logged at debug), its event, its cookie (the pending sign-in).
  quietErrors: ["TwoFactorAlreadyEnabled", "TwoFactorExpired", "TwoFactorNotEnabled"],
  events: ["twoFactorChanged"],
  cookies: { twoFactor: "two-factor" },
  // Its owner-present operations: turning the app off and new codes take a code, which proves the factor itself.
  ownerOperations: {
    enrollTotp: { label: "TOTP enrollment" },
    confirmTotp: { label: "TOTP confirmation" },
    disableTotp: { label: "TOTP removal", provesSecondFactor: true },
    regenerateRecoveryCodes: { label: "recovery codes regeneration", provesSecondFactor: true },
  },
  api: twoFactorApi,
  // Off, a passkey's second step has no sign-in to complete: the refusal is this feature's own.
  hooksWhenOff: {
    pendingSecondStepUser: async () => {
      throw new TwoFactorExpired("No sign-in waits for a second step in this browser: sign in again.");
    },
  },
  // The second step after a first factor, level 2 for owner-present operations, a passkey as second factor.
  hooks: {
    afterFirstFactor: async (options, request, result, method) => (await gate()).holdForSecondStep(options, request, result, method),
    needsSecondLevel: async (options, userId, signedInAt) => (await gate()).needsSecondLevel(options, userId, signedInAt),
    pendingSecondStepUser: async (options, request) => (await (await import("./pending.js")).pendingOrExpired(options, request)).userId,
  },
  operations: [
    // The second step's page and form, bound to this browser's CSRF cookie (minted only where there is none).
    {
      name: "twoFactorPage",
      method: "GET",
      path: "two-factor",
      needs: { csrf: "mint" },
      presentation: "page",
      handler: lazyHandler(() => import("./page.js"), "secondStepPage"),
    },
    verifyTwoFactor,
    enrollTotp,
    confirmTotp,
    disableTotp,
    regenerateRecoveryCodes,
    getTwoFactorStatus,
    sessionAssurance,
    // The account page's forms of its section, running the operations above by name.
    accountForm("enrollTotpForm", "two-factor-enroll", "enrollForm", "enrollTotp"),
    accountForm("confirmTotpForm", "two-factor-confirm", "confirmForm", "confirmTotp"),
    accountForm("disableTotpForm", "two-factor-disable", "disableForm", "disableTotp"),
    accountForm("regenerateRecoveryCodesForm", "two-factor-recovery-codes", "regenerateForm", "regenerateRecoveryCodes", "recovery-codes"),
  ],
});
