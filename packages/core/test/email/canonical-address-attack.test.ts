/**
 * The attack of issue 44 on one canonical address: with the account locked by failures on the plain
 * address, a guess through an IDNA variant (variation selectors, U+034F, U+180B–U+180D, soft hyphen,
 * fullwidth, ideographic full stop, …) is refused (`RateLimited`), and so is the right password: the
 * variant is the same account under the same lockout key. Password() on PGlite, mails through a real
 * SMTP server, time on the store's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { ORIGIN, passwordApp, type Smtp, signIn, signUpAndVerify } from "../password/helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await closeSharedPglite();
});

describe("the attack: a lockout cannot be stepped around with an IDNA variant", () => {
  it("locked by failures on the plain address, every variant is refused, the right password too", async () => {
    let now = Date.now();
    const app = await passwordApp(smtp, { config: { rateLimit: { store: memoryRateLimitStore({ now: () => now }) } } });
    await signUpAndVerify(smtp, app.browser(), "victim@example.com", "correct horse battery");
    const attacker = app.browser();
    const outcome = async (email: string, password: string) => {
      const location = new URL((await signIn(attacker, email, password)).headers.get("location") ?? "", ORIGIN);
      return location.searchParams.get("error") ?? location.pathname;
    };
    // Ten failures on the plain address (the delays waited out on the store's clock) lock the account.
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await outcome("victim@example.com", `wrong ${attempt}`)).toBe("CredentialsSignin");
      if (attempt >= 3) now += 2 ** (attempt - 3) * 1000 + 1;
    }
    expect(await outcome("victim@example.com", "wrong again")).toBe("RateLimited");

    const variants = [
      "victim@e\uFE00xample.com",
      "victim@e\u034Fxample.com",
      "victim@ex\u180Bample.com",
      "victim@exa\u180Cmple.com",
      "victim@exam\u180Dple.com",
      "vic\u00ADtim@example.com",
      "vic\uFE0Ftim@example.com",
      "VICTIM@EXAMPLE.COM",
      "ｖｉｃｔｉｍ@example.com",
      "victim@example\u3002com",
      "vi\u{E0100}ctim@example.com",
    ];
    for (const [index, variant] of variants.entries()) {
      expect(await outcome(variant, `guess ${index}`), variant).toBe("RateLimited");
      expect(await outcome(variant, "correct horse battery"), variant).toBe("RateLimited");
    }
    // Nothing signed in while locked, and the owner's right password still works once the window ends.
    expect(app.events.filter((event) => event.startsWith("signIn")).length).toBe(1);
    now += 16 * 60_000;
    expect(await outcome("victim@e\uFE00xample.com", "correct horse battery")).toBe("/home");
  }, 300_000);
});
