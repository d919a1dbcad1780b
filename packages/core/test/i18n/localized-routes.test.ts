/**
 * The language through `Auth()`: the request's `Accept-Language` or the configured `locale` picks the
 * built-in pages' language and `<html lang dir>`; an app's added catalog lays out right to left; a hostile
 * header gets English and is never echoed; the sign-in mail is written in the language of the request
 * that asked for it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { verificationMail } from "../../src/email/template.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { Translator } from "../../src/types/i18n.js";
import type { SendVerificationRequestParams } from "../../src/types/providers.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";

const secret = "i18n-routes-secret-0123456789abcdef";
const base = (overrides: Partial<AuthConfig> = {}): AuthConfig => ({
  secret,
  trustHost: true,
  providers: [Credentials({ name: "Password", credentials: { username: { label: "Username" } }, authorize: () => null })],
  ...overrides,
});

async function page(config: AuthConfig, path: string, acceptLanguage?: string): Promise<string> {
  const headers = acceptLanguage === undefined ? undefined : { "accept-language": acceptLanguage };
  return (await authClient(config).send(path, { headers })).text();
}

describe("the pages' language", () => {
  it("follows Accept-Language, by q-value and base language", async () => {
    const html = await page(base(), "/auth/signin", "en;q=0.3, de-AT");
    expect(html).toMatch(/^<!DOCTYPE html><html lang="de" dir="ltr"/);
    expect(html).toContain("<title>Anmelden</title>");
    expect(html).toContain("Mit Passwort anmelden");
  });

  it.each([
    ["/auth/signout", "zh-CN", "确定要退出登录吗？"],
    ["/auth/error?error=Verification", "fr", "Le lien de connexion n’est plus valide."],
    ["/auth/error", "pt-BR", "Algo deu errado ao fazer seu login. Tente de novo."],
    ["/auth/signin?error=CredentialsSignin", "es", "No se pudo iniciar sesión. Comprueba que los datos introducidos son correctos."],
    ["/auth/verify-request", "ja", "ログインリンクをメールアドレスに送信しました。"],
  ])("%s in %s", async (path, language, expected) => {
    expect(await page(base(), path, language)).toContain(expected);
  });

  it("the configured locale wins over the header", async () => {
    const html = await page(base({ locale: "ja" }), "/auth/signin", "de");
    expect(html).toMatch(/<html lang="ja" dir="ltr"/);
    expect(html).toContain("パスワードでログイン");
  });

  it("an app's Arabic catalog: lang=ar dir=rtl, its strings, English for the keys it leaves out", async () => {
    const html = await page(base({ messages: { ar: { "signin.title": "تسجيل الدخول" } } }), "/auth/signin", "ar-EG");
    expect(html).toMatch(/<html lang="ar" dir="rtl"/);
    expect(html).toContain("<h1>تسجيل الدخول</h1>");
    expect(html).toContain("Sign in with Password");
  });

  it.each(["__proto__", "constructor", "../../etc/passwd", `${"x-y".repeat(30_000)}`, "<img src=x onerror=alert(1)>"])(
    "a hostile header gets English and is not echoed: %s",
    async (header) => {
      const html = await page(base({ messages: { ar: {} } }), "/auth/signin", header);
      expect(html).toMatch(/<html lang="en" dir="ltr"/);
      expect(html).not.toContain(header.slice(0, 40));
    },
  );
});

describe("the sign-in mail's language", () => {
  afterAll(closeSharedPglite);

  it("is the language of the request that asked for it", async () => {
    const sent: SendVerificationRequestParams[] = [];
    const client = authClient({
      secret,
      trustHost: true,
      adapter: (await freshDatabase()).adapter,
      providers: [{ id: "raw", name: "Raw", type: "email", sendVerificationRequest: (params) => void sent.push(params) }],
    });
    const csrfToken = await client.csrf();
    const answer = await client.send("/auth/signin/raw", {
      form: { csrfToken, email: "ana@example.com" },
      headers: { "accept-language": "es-MX,es;q=0.9" },
    });
    expect(answer.status).toBe(302);
    expect(sent).toHaveLength(1);
    const params = sent[0] as SendVerificationRequestParams;
    expect((params.text as Translator).locale).toBe("es");
    const mail = verificationMail({ url: params.url, host: "localhost:3000", theme: params.theme, text: params.text });
    expect(mail.subject).toBe("Inicia sesión en localhost:3000");
    expect(mail.html).toMatch(/^<!doctype html><html lang="es" dir="ltr">/);
  });
});

describe("right-to-left layout", () => {
  it("the pages' stylesheet uses no physical left/right (margins, paddings, borders, alignment, floats)", async () => {
    const { PAGE_CSS } = await import("../../src/pages/styles.js");
    expect(PAGE_CSS).not.toMatch(/(margin|padding|border)-(left|right)|text-align:\s*(left|right)|float:|[{;]\s*(left|right):/);
  });
});
