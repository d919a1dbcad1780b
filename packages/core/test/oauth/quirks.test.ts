/**
 * The provider quirks of `oauth/conform.ts` on their own: each rewrites only what its provider needs,
 * leaves standard providers untouched, and turns a provider's error in disguise (WeChat's HTTP 200
 * `errcode`) into a refused sign-in rather than a crash. The full flows of the presets that use them
 * are in `preset-flows.test.ts`; the self-hosted Nextcloud preset's configuration paths are here too.
 */
import { customFetch } from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { setEnvDefaults } from "../../src/env/defaults.js";
import { conformAuthorizationUrl, conformTokenRequestOptions, conformTokenResponse } from "../../src/oauth/conform.js";
import { requestOptions } from "../../src/oauth/http.js";
import Nextcloud from "../../src/providers/nextcloud.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { startFakeServer } from "./fake-server.js";
import wechat from "./preset-fixtures/wechat.js";
import { startFakePreset } from "./preset-harness.js";

describe("conformTokenResponse: json-as-text (WeChat)", () => {
  it("turns an HTTP 200 errcode answer into an RFC 6749 error response", async () => {
    const answer = new Response(JSON.stringify({ errcode: 40029, errmsg: "invalid code" }), { headers: { "content-type": "text/plain" } });
    const conformed = await conformTokenResponse(answer, ["json-as-text", "token-type-missing"]);
    expect(conformed.status).toBe(400);
    expect(conformed.headers.get("content-type")).toBe("application/json");
    expect(await conformed.json()).toEqual({ error: "invalid_grant", error_description: "40029 invalid code" });
  });

  it("reads a text/plain token response as JSON only for a provider declaring the quirk", async () => {
    const text = () => new Response('{"access_token":"at","openid":"o1"}', { headers: { "content-type": "text/plain" } });
    expect((await conformTokenResponse(text())).headers.get("content-type")).toBe("text/plain");
    const conformed = await conformTokenResponse(text(), ["json-as-text", "token-type-missing"]);
    expect(conformed.headers.get("content-type")).toBe("application/json");
    expect(await conformed.json()).toEqual({ access_token: "at", openid: "o1", token_type: "bearer" });
  });

  it("leaves a body that is not JSON for oauth4webapi to refuse", async () => {
    const html = new Response("<html>maintenance</html>", { headers: { "content-type": "text/html" } });
    expect(await (await conformTokenResponse(html, ["json-as-text"])).text()).toBe("<html>maintenance</html>");
  });
});

describe("conformAuthorizationUrl", () => {
  it("renames client_id and adds the fragment for providers that want it, and changes nothing otherwise", async () => {
    const url = () => new URL("https://open.weixin.qq.com/connect/qrconnect?client_id=wx1&state=s");
    const wechat = await conformAuthorizationUrl(url(), { clientIdParam: "appid", authorizationFragment: "wechat_redirect" });
    expect(wechat.href).toBe("https://open.weixin.qq.com/connect/qrconnect?state=s&appid=wx1#wechat_redirect");
    expect((await conformAuthorizationUrl(url())).href).toBe(url().href);
  });
});

describe("conformTokenRequestOptions", () => {
  it("sends WeChat's token request as a GET with appid and secret in the query", async () => {
    const fake = await startFakeServer();
    try {
      fake.routes["GET /sns/oauth2/access_token"] = () => ({ body: { access_token: "at" } });
      const options = await conformTokenRequestOptions(requestOptions(true), {
        clientIdParam: "appid",
        clientSecretParam: "secret",
        tokenRequestMethod: "GET",
      });
      const send = (options as unknown as Record<symbol, (url: string, init: RequestInit) => Promise<Response>>)[customFetch];
      const body = new URLSearchParams({ client_id: "wx1", client_secret: "s3", code: "c", grant_type: "authorization_code" });
      const response = await send(`${fake.origin}/sns/oauth2/access_token`, {
        method: "POST",
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(response.status).toBe(200);
      const [request] = fake.requests;
      expect(request?.method).toBe("GET");
      expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
        appid: "wx1",
        secret: "s3",
        code: "c",
        grant_type: "authorization_code",
      });
      expect(request?.text).toBe("");
    } finally {
      await fake.close();
    }
  });

  it("returns the options unchanged for a provider without quirks", async () => {
    const options = requestOptions(false);
    expect(await conformTokenRequestOptions(options)).toBe(options);
    expect(await conformTokenRequestOptions(options, {})).toBe(options);
  });
});

describe("Nextcloud configuration", () => {
  it("takes the instance from AUTH_NEXTCLOUD_ISSUER when passed uncalled", () => {
    const config: AuthConfig = { providers: [Nextcloud] };
    setEnvDefaults({ AUTH_NEXTCLOUD_ISSUER: "https://cloud.example.com/" }, config);
    const provider = config.providers[0] as OAuthConfig;
    expect(provider.authorization).toBe("https://cloud.example.com/index.php/apps/oauth2/authorize");
    expect(provider.token).toBe("https://cloud.example.com/index.php/apps/oauth2/api/v1/token");
    expect("baseUrl" in Nextcloud({ baseUrl: "https://cloud.example.com" })).toBe(false);
  });

  it("without a base URL, the configuration is refused at start-up with InvalidEndpoints, never a crash", async () => {
    const errors: string[] = [];
    const client = authClient({
      secret: "quirks-test-secret-0123456789abcdef",
      trustHost: true,
      providers: [Nextcloud({ clientId: "id", clientSecret: "secret" })],
      logger: { error: (error) => errors.push(`${error.name}: ${error.message}`) },
    });
    const page = await client.send("/auth/signin");
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toContain("There is a problem with the server configuration.");
    expect(html).not.toContain("InvalidEndpoints");
    expect(errors.some((line) => line.startsWith("InvalidEndpoints") && line.includes("nextcloud"))).toBe(true);
  });
});

describe("WeChat sign-in refused by WeChat", () => {
  it("an errcode answer from the token endpoint ends on the error page as OAuthCallbackError, not in a crash", async () => {
    // https://developers.weixin.qq.com/doc/oplatform/en/Website_App/WeChat_Login/Wechat_Login.html: errors come as HTTP 200.
    const refusing = { ...wechat, token: { ...wechat.token, response: () => ({ errcode: 40029, errmsg: "invalid code" }) } };
    const fake = await startFakePreset(refusing);
    const errors: string[] = [];
    try {
      const client = authClient({
        secret: "quirks-test-secret-0123456789abcdef",
        trustHost: true,
        providers: [fake.provider],
        logger: { error: (error) => errors.push(error.name) },
      });
      const csrfToken = await client.csrf();
      const start = await client.send("/auth/signin/wechat", { form: { csrfToken } });
      const done = await client.send(fake.approve(start.headers.get("location") ?? "", client.origin));
      expect(done.status).toBe(302);
      expect(done.headers.get("location")).toMatch(/\/auth\/(signin|error)\?error=OAuthCallbackError/);
      expect(errors).toContain("OAuthCallbackError");
      expect(await client.session()).toBeNull();
    } finally {
      await fake.close();
    }
  });
});
