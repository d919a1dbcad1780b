/**
 * The second factor (docs/two-factor.md): the second step of a sign-in (`GET <basePath>/two-factor` its
 * page, `POST` the step itself, `second-step.ts`) and the signed-in user's settings (`/enroll`,
 * `/confirm`, `/disable`, `/status`, `settings.ts`, answered as JSON). Turned on by `twoFactor` in the
 * configuration; its code loads with the first request to it.
 *
 * @module features/two-factor
 */
import { defineFeature, defineOperation, lazyHandler } from "../define.js";
import { codeInput, secondStepInput } from "./input.js";

const settings = () => import("./settings.js");
const gate = () => import("./gate.js");
const secondStep = () => import("./second-step.js");
const _secondStep = () => import("./second-step.js");

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

export const getTwoFactorStatus = defineOperation({
  name: "getTwoFactorStatus",
  method: "GET",
  path: "two-factor/status",
  needs: { csrf: "mint" },
  presentation: "json",
  handler: lazyHandler(settings, "status"),
});

export const twoFactorFeature = defineFeature({
  name: "two-factor",
  enabled: (config) => Boolean(config.twoFactor),
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
    getTwoFactorStatus,
  ],
});
