// Type test (compiled by `tsc`, never run): the configuration's `messages` accepts any subset of the
// catalog's keys per language, refuses a key that is not one, and `locale` is a tag or a function of the request.
import type { AuthConfig, MessageKey, Messages } from "@authlib/core";

export const overrides: AuthConfig = {
  providers: [],
  locale: (request) => (request.headers.get("x-lang") === "de" ? "de" : undefined),
  messages: {
    de: { "signin.title": "Einloggen" },
    ar: { "signin.title": "تسجيل الدخول", "signout.button": "تسجيل الخروج" },
  },
};

export const typo: AuthConfig = {
  providers: [],
  // @ts-expect-error: "signin.titel" is not a key of the catalogs
  messages: { de: { "signin.titel": "Einloggen" } },
};

// @ts-expect-error: a complete catalog needs every key
export const incomplete: Messages = { "signin.title": "Sign In" };

export const key: MessageKey = "account.title";
// @ts-expect-error: not a key
export const notAKey: MessageKey = "account.titel";
