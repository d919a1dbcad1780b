import { describe, expect, it, vi } from "vitest";
import { hashPassword, verifyPassword } from "../../src/password.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";

const secret = "pages-routes-secret-0123456789abcdef";
const base = (overrides: Partial<AuthConfig> = {}): AuthConfig => ({
  secret,
  trustHost: true,
  providers: [
    Credentials({
      name: "Password",
      credentials: { username: { label: "Username" } },
      authorize: ({ username }) => (username === "new" ? { id: "n1" } : null),
    }),
  ],
  ...overrides,
});

describe("built-in pages through Auth()", () => {
  it("GET /signin renders the form with the CSRF token and an escaped callbackUrl", async () => {
    const client = authClient(base({ theme: { brandColor: "#ff0066", colorScheme: "dark" } }));
    const payload = '/"><script>alert(1)</script>';
    const response = await client.send(`/auth/signin?callbackUrl=${encodeURIComponent(payload)}&error=CredentialsSignin`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    const csrf = client.jar.get("authlib.csrf-token")?.split("|")[0] as string;
    expect(html).toContain(`value="${csrf}"`);
    expect(html).toContain('action="http://localhost:3000/auth/callback/credentials"');
    expect(html).toContain("Sign in with Password");
    expect(html).toContain("Sign in failed. Check the details you provided are correct.");
    expect(html).toContain("#ff0066");
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("GET /signout renders a confirmation form that posts with the token", async () => {
    const client = authClient(base());
    const html = await (await client.send("/auth/signout")).text();
    expect(html).toContain('action="http://localhost:3000/auth/signout"');
    expect(html).toContain('name="csrfToken"');
  });

  it.each([
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
    ["<img src=x onerror=alert(1)>", 200],
  ])("GET /error?error=%s answers %i and escapes", async (error, status) => {
    const response = await authClient(base()).send(`/auth/error?error=${encodeURIComponent(error)}`);
    expect(response.status).toBe(status);
    expect(await response.text()).not.toContain("<img src=x");
  });

  describe("a server error's page in development", () => {
    /** Database sessions whose adapter does not know the user authorize returns: UnknownCredentialsUser. */
    async function failedSignIn() {
      const client = authClient(base({ adapter: memoryAdapter().adapter, session: { strategy: "database" }, logger: { error: () => {} } }));
      const csrfToken = await client.csrf();
      const failed = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "new" } });
      return { client, location: failed.headers.get("location") as string };
    }

    it("NODE_ENV=development: the page names the type the server logged, with its troubleshooting entry", async () => {
      vi.stubEnv("NODE_ENV", "development");
      try {
        const { client, location } = await failedSignIn();
        expect(location).toBe("http://localhost:3000/auth/error?error=Configuration&cause=UnknownCredentialsUser");
        const html = await (await client.send(location)).text();
        expect(html).toContain("Development: the server logged <code>UnknownCredentialsUser</code>.");
        expect(html).toContain('href="https://github.com/authlib/authlib/blob/main/docs/troubleshooting.md#unknowncredentialsuser"');
        // A cause that is not an error type's name is not shown (a link can put anything in the URL).
        const forged = await (await client.send("/auth/error?error=Configuration&cause=%3Cb%3Ehi%3C%2Fb%3E")).text();
        expect(forged).not.toContain("Development:");
      } finally {
        vi.unstubAllEnvs();
      }
    });

    it.each(["production", "test"])("NODE_ENV=%s: the URL and the page say only Configuration", async (env) => {
      vi.stubEnv("NODE_ENV", env);
      try {
        const { client, location } = await failedSignIn();
        expect(location).toBe("http://localhost:3000/auth/error?error=Configuration");
        const html = await (await client.send(`${location}&cause=UnknownCredentialsUser`)).text();
        expect(html).not.toContain("UnknownCredentialsUser");
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });

  it("GET /verify-request shows the host", async () => {
    const html = await (await authClient(base()).send("/auth/verify-request?provider=email&type=email")).text();
    expect(html).toContain("localhost:3000");
  });

  it("custom pages redirect to the app's own pages, keeping callbackUrl and error", async () => {
    const client = authClient(base({ pages: { signIn: "/login", error: "/oops", signOut: "/logout", verifyRequest: "/check-mail" } }));
    expect((await client.send("/auth/signin?error=CredentialsSignin")).headers.get("location")).toBe(
      "http://localhost:3000/login?callbackUrl=http%3A%2F%2Flocalhost%3A3000%2F&error=CredentialsSignin",
    );
    expect((await client.send("/auth/error?error=AccessDenied")).headers.get("location")).toBe(
      "http://localhost:3000/oops?error=AccessDenied",
    );
    expect((await client.send("/auth/signout")).headers.get("location")).toContain("http://localhost:3000/logout?callbackUrl=");
    expect((await client.send("/auth/verify-request?provider=x")).headers.get("location")).toBe(
      "http://localhost:3000/check-mail?provider=x",
    );
    const csrfToken = await client.csrf();
    const failed = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "nobody" } });
    expect(failed.headers.get("location")).toBe(
      "http://localhost:3000/login?error=CredentialsSignin&code=credentials&provider=credentials",
    );
  });

  it("pages.newUser receives new users (isNewUser) only", async () => {
    const client = authClient(base({ pages: { newUser: "/welcome" }, callbacks: { jwt: ({ token }) => token } }));
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "new", callbackUrl: "/home" } });
    // Credentials sign-ins are never "new users": the app owns its user store.
    expect(response.headers.get("location")).toBe("http://localhost:3000/home");
  });

  it("debug logs only with debug: true", async () => {
    const debug = vi.fn();
    await authClient(base({ logger: { debug } })).send("/auth/session");
    expect(debug).not.toHaveBeenCalled();
    await authClient(base({ logger: { debug, warn: () => {} }, debug: true })).send("/auth/nope");
    expect(debug).toHaveBeenCalled();
  });
});

describe("password helper", () => {
  it("hashes with scrypt and a random salt, verifies, refuses wrong and malformed input", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(await hashPassword("correct horse battery staple")).not.toBe(hash);
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("Correct horse battery staple", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
    for (const bad of [
      "",
      "plain",
      "scrypt$1$1$1$$",
      hash.replace("scrypt", "bcrypt"),
      hash.replace("$32768$", "$99999999$"),
      `${hash}x`,
    ]) {
      expect(await verifyPassword("correct horse battery staple", bad)).toBe(false);
    }
  });

  it("treats Unicode-equivalent passwords alike (NFKC)", async () => {
    const hash = await hashPassword("ｐａｓｓ");
    expect(await verifyPassword("pass", hash)).toBe(true);
  });
});

describe("pages are never framed nor cached", () => {
  const styleHash = async (html: string) => {
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(css)));
    return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
  };

  it.each(["/auth/signin", "/auth/signout", "/auth/error?error=AccessDenied", "/auth/verify-request?provider=email&type=email"])(
    "GET %s: X-Frame-Options DENY, frame-ancestors 'none', no-store, a CSP that allows only its own style",
    async (path) => {
      const response = await authClient(base()).send(path);
      const html = await response.text();
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("cache-control")).toBe("no-store");
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`style-src ${await styleHash(html)}`);
      expect(csp).not.toContain("unsafe-inline");
    },
  );

  it("the configuration error page has the same headers", async () => {
    const logger = { error: vi.fn(), warn: vi.fn(), debug: vi.fn() };
    const response = await authClient(base({ secret: undefined, logger })).send("/auth/signin");
    expect(response.status).toBe(500);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("a theme colour cannot widen the policy: the hash covers exactly the rendered stylesheet", async () => {
    const client = authClient(base({ theme: { brandColor: "#123456" } }));
    const response = await client.send("/auth/signin");
    const html = await response.text();
    expect(html).toContain("#123456");
    expect(response.headers.get("content-security-policy")).toContain(await styleHash(html));
  });
});
