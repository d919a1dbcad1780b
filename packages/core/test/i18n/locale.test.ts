/**
 * Which language a request gets, and that a header's text is only ever a lookup key: hostile
 * `Accept-Language` values (prototype keys, paths, huge headers) fall back to English and are never echoed.
 */
import { describe, expect, it } from "vitest";
import { twoFactorMessages } from "../../src/features/two-factor/messages.js";
import { matchLocale, parseAcceptLanguage, SHIPPED_LOCALES } from "../../src/i18n/locale.js";
import { chooseLocale, requestTranslator } from "../../src/i18n/request.js";
import { createTranslator, directionOf } from "../../src/i18n/translator.js";
import type { MessageOverrides } from "../../src/types/i18n.js";

const request = (acceptLanguage?: string) =>
  new Request("https://app.example.com/auth/signin", {
    headers: acceptLanguage === undefined ? {} : { "accept-language": acceptLanguage },
  });

describe("Accept-Language", () => {
  it("orders tags by q-value, then by their order, and drops q=0, * and malformed entries", () => {
    expect(parseAcceptLanguage("de;q=0.5, fr;q=0.9, es")).toEqual(["es", "fr", "de"]);
    expect(parseAcceptLanguage("ja, zh;q=0, *;q=0.1, ../x, pt-BR;q=0.8")).toEqual(["ja", "pt-BR"]);
    expect(parseAcceptLanguage("")).toEqual([]);
    expect(parseAcceptLanguage(null)).toEqual([]);
  });

  it.each([
    ["de", "de"],
    ["de-AT", "de"],
    ["DE-at,en;q=0.5", "de"],
    ["fr-CA;q=0.9, es;q=0.95", "es"],
    ["pt-BR", "pt"],
    ["zh-CN,zh;q=0.9", "zh"],
    ["ja-JP", "ja"],
    ["sv, nl;q=0.8", "en"],
    ["sv, fr;q=0.1", "fr"],
    [undefined, "en"],
  ])("%s → %s", (header, locale) => {
    expect(chooseLocale({}, request(header))).toBe(locale);
  });

  it.each([
    "__proto__",
    "constructor",
    "toString, hasOwnProperty",
    "../../../etc/passwd",
    "..\\de",
    "de-",
    "<script>alert(1)</script>",
    "x".repeat(100_000),
    `${"a;q=0.1,".repeat(20_000)}de`,
  ])("a hostile header gets English and is not echoed: %s", async (header) => {
    const translator = await requestTranslator({ messages: { ar: { "signin.title": "تسجيل الدخول" } } }, request(header));
    expect(translator.locale).toBe("en");
    expect(translator.t("signin.title")).toBe("Sign In");
  });

  it("reads only the start of a huge header (a wanted tag after 512 characters is ignored)", () => {
    expect(parseAcceptLanguage(`${"xx;q=0.1, ".repeat(100)}de`)).not.toContain("de");
  });
});

describe("the configured locale", () => {
  it("wins over the header; a function of the request decides per request; undefined falls back", () => {
    expect(chooseLocale({ locale: "fr" }, request("de"))).toBe("fr");
    expect(chooseLocale({ locale: "de-CH" }, request("fr"))).toBe("de");
    const byPath = (r: Request) => (new URL(r.url).searchParams.get("lang") === "ja" ? "ja" : undefined);
    expect(chooseLocale({ locale: byPath }, new Request("https://a.example/?lang=ja"))).toBe("ja");
    expect(chooseLocale({ locale: byPath }, request("es"))).toBe("es");
  });

  it("a locale function that throws does not break the page: the header decides", () => {
    const locale = () => {
      throw new Error("boom");
    };
    expect(chooseLocale({ locale }, request("pt"))).toBe("pt");
  });

  it("an unknown configured tag falls back to English", () => {
    expect(chooseLocale({ locale: "__proto__" }, request())).toBe("en");
  });
});

describe("app catalogs and overrides", () => {
  it("an added language is chosen, laid out right to left, and falls back to English per missing key", async () => {
    const messages: Record<string, MessageOverrides> = { ar: { "signin.title": "تسجيل الدخول" } };
    const translator = await requestTranslator({ messages }, request("ar-EG, en;q=0.5"));
    expect(translator.locale).toBe("ar");
    expect(translator.dir).toBe("rtl");
    expect(translator.t("signin.title")).toBe("تسجيل الدخول");
    expect(translator.t("signout.button")).toBe("Sign out");
  });

  it("a partial override replaces single strings of a shipped language and keeps the rest", async () => {
    const translator = await requestTranslator({ messages: { de: { "signin.title": "Einloggen" } } }, request("de-AT"));
    expect(translator.t("signin.title")).toBe("Einloggen");
    expect(translator.t("signout.button")).toBe("Abmelden");
  });

  it("a regional override applies over its base language's texts", async () => {
    const translator = await requestTranslator({ messages: { "pt-BR": { "signin.title": "Fazer login" } } }, request("pt-BR"));
    expect(translator.locale).toBe("pt-BR");
    expect(translator.t("signin.title")).toBe("Fazer login");
    expect(translator.t("signout.button")).toBe("Sair");
  });

  it("a feature's texts join the language's catalog, and the app's messages override them", async () => {
    const features = [twoFactorMessages];
    const german = await requestTranslator({}, request("de-AT"), features);
    expect(german.t("twoFactor.continue")).toBe((await twoFactorMessages.de())["twoFactor.continue"]);
    expect(german.t("signout.button")).toBe("Abmelden");
    const english = await requestTranslator({}, request(), features);
    expect(english.t("twoFactor.continue")).toBe("Continue");
    const own = await requestTranslator({ messages: { de: { "twoFactor.continue": "Weiter geht's" } } }, request("de"), features);
    expect(own.t("twoFactor.continue")).toBe("Weiter geht's");
    const ownEnglish = await requestTranslator({ messages: { en: { "twoFactor.continue": "Go on" } } }, request(), features);
    expect(ownEnglish.t("twoFactor.continue")).toBe("Go on");
  });

  it("an English override changes English", async () => {
    const translator = await requestTranslator({ messages: { en: { "signin.title": "Log in" } } }, request());
    expect(translator.t("signin.title")).toBe("Log in");
  });

  it("keys that are not ours and non-string values are ignored", () => {
    const layer = JSON.parse('{"__proto__": {"signin.title": "polluted"}, "signin.title": 5, "nope": "x"}') as object;
    const translator = createTranslator("en", [layer]);
    expect(translator.t("signin.title")).toBe("Sign In");
    expect(({} as Record<string, unknown>)["signin.title"]).toBeUndefined();
  });

  it("fills placeholders with values as plain text, and leaves unknown ones as written", () => {
    const translator = createTranslator("en", []);
    expect(translator.t("signin.withProvider", { provider: "<b>GitHub</b>" })).toBe("Sign in with <b>GitHub</b>");
    expect(translator.t("signin.withProvider")).toBe("Sign in with {provider}");
  });

  it("a key typo is a compile error", () => {
    // @ts-expect-error: "signin.titel" is not a key of the catalogs
    const overrides: MessageOverrides = { "signin.titel": "x" };
    expect(overrides).toBeDefined();
  });
});

describe("direction", () => {
  it.each([
    ["ar", "rtl"],
    ["he-IL", "rtl"],
    ["fa", "rtl"],
    ["ur-PK", "rtl"],
    ["de", "ltr"],
    ["ja", "ltr"],
  ] as const)("%s is %s", (locale, dir) => {
    expect(directionOf(locale)).toBe(dir);
  });

  it("matches as the available tag spells it", () => {
    expect(matchLocale(["PT-br"], [...SHIPPED_LOCALES, "pt-BR"])).toBe("pt-BR");
  });
});
