/**
 * Every OAuth / OIDC preset: its identity, endpoints and checks; its profile mapping applied to a
 * recorded profile response (fixtures/*.json, shapes from the providers' API documentation); its env
 * variable naming (`AUTH_<ID>_ID|SECRET|ISSUER`); option merging.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setEnvDefaults } from "../../src/env/defaults.js";
import { InvalidEndpoints } from "../../src/errors.js";
import { assertConfig } from "../../src/kernel/assert.js";
import { conformTokenResponse } from "../../src/oauth/conform.js";
import { startAuthorization } from "../../src/oauth/index.js";
import Apple from "../../src/providers/apple.js";
import Auth0 from "../../src/providers/auth0.js";
import Authentik from "../../src/providers/authentik.js";
import Bitbucket from "../../src/providers/bitbucket.js";
import Cognito from "../../src/providers/cognito.js";
import Discord, { discordAvatarUrl } from "../../src/providers/discord.js";
import Facebook from "../../src/providers/facebook.js";
import GitHub from "../../src/providers/github.js";
import GitLab from "../../src/providers/gitlab.js";
import Google from "../../src/providers/google.js";
import * as providers from "../../src/providers/index.js";
import Keycloak from "../../src/providers/keycloak.js";
import LinkedIn from "../../src/providers/linkedin.js";
import Mastodon from "../../src/providers/mastodon.js";
import MicrosoftEntraID from "../../src/providers/microsoft-entra-id.js";
import { mergeProviderOptions, OAuthProvider } from "../../src/providers/oauth.js";
import Okta from "../../src/providers/okta.js";
import Reddit from "../../src/providers/reddit.js";
import Slack from "../../src/providers/slack.js";
import Spotify from "../../src/providers/spotify.js";
import Twitch from "../../src/providers/twitch.js";
import Twitter from "../../src/providers/twitter.js";
import type { OAuthConfig, Provider, TokenSet } from "../../src/providers/types.js";
import Zitadel from "../../src/providers/zitadel.js";
import type { AuthConfig, Profile, User } from "../../src/types/config.js";
import { contextFor } from "./support.js";

function fixture<T = Profile>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8")) as T;
}

type Preset = (options?: Record<string, unknown>) => OAuthConfig;

interface PresetCase {
  preset: Preset;
  id: string;
  type: "oauth" | "oidc";
  /** Default issuer; `null` when the user must configure one (`AUTH_<ID>_ISSUER`). */
  issuer?: string | null;
  authorization?: string;
  token?: string;
  userinfo?: string;
  scope?: string;
  checks?: string[];
  clientAuth?: string;
  expected: User;
}

const tokens: TokenSet = { access_token: "at", token_type: "bearer" };

const cases: PresetCase[] = [
  {
    preset: GitHub as Preset,
    id: "github",
    type: "oauth",
    authorization: "https://github.com/login/oauth/authorize",
    token: "https://github.com/login/oauth/access_token",
    userinfo: "https://api.github.com/user",
    scope: "read:user user:email",
    expected: { id: "583231", name: "The Octocat", email: null, image: "https://avatars.githubusercontent.com/u/583231?v=4" },
  },
  {
    preset: Google as Preset,
    id: "google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    expected: {
      id: "10769150350006150715113082367",
      name: "Jane Smith",
      email: "jsmith@example.com",
      image: "https://lh3.googleusercontent.com/a/ACg8ocJ7x9QvQ2q-example=s96-c",
    },
  },
  {
    preset: MicrosoftEntraID as Preset,
    id: "microsoft-entra-id",
    type: "oidc",
    issuer: "https://login.microsoftonline.com/common/v2.0",
    scope: "openid profile email User.Read",
    expected: { id: "HKZpfaHyWadeOouYlitjrI-KffTm222X5rrV3xDqfKQ", name: "Abe Lincoln", email: "AbeLi@microsoft.com", image: null },
  },
  {
    preset: Apple as Preset,
    id: "apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    scope: "name email",
    checks: ["pkce", "state", "nonce"],
    clientAuth: "client_secret_post",
    expected: {
      id: "001234.9f3c2b7e4a1d4c6f8e0a2b4c6d8e0f12.1234",
      name: "Tim Apple",
      email: "x4k2p9qz7m@privaterelay.appleid.com",
      image: null,
    },
  },
  {
    preset: Discord as Preset,
    id: "discord",
    type: "oauth",
    authorization: "https://discord.com/oauth2/authorize",
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    scope: "identify email",
    checks: ["pkce", "state"],
    expected: {
      id: "80351110224678912",
      name: "Nelly",
      email: "nelly@discord.com",
      image: "https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif",
    },
  },
  {
    preset: GitLab as Preset,
    id: "gitlab",
    type: "oauth",
    issuer: "https://gitlab.com",
    authorization: "https://gitlab.com/oauth/authorize",
    token: "https://gitlab.com/oauth/token",
    userinfo: "https://gitlab.com/api/v4/user",
    scope: "read_user",
    expected: {
      id: "1",
      name: "John Smith",
      email: "john@example.com",
      image: "https://secure.gravatar.com/avatar/e64c7d89f26bd1972efa854d13d7dd61?s=80&d=identicon",
    },
  },
  {
    preset: Auth0 as Preset,
    id: "auth0",
    type: "oidc",
    issuer: null,
    expected: {
      id: "auth0|65d1f2c3b4a5968778695a4b",
      name: "Jane Doe",
      email: "jane.doe@example.com",
      image: "https://s.gravatar.com/avatar/5b4bd7c1ba0e0a6e3e6b5c5d5f0e3f1a?s=480&r=pg&d=https%3A%2F%2Fcdn.auth0.com%2Favatars%2Fjd.png",
    },
  },
  {
    preset: Okta as Preset,
    id: "okta",
    type: "oidc",
    issuer: null,
    expected: { id: "00uid4BxXw6I6TV4m0g3", name: "John Doe", email: "john.doe@example.com", image: null },
  },
  {
    preset: Keycloak as Preset,
    id: "keycloak",
    type: "oidc",
    issuer: null,
    // No `name` claim in this realm: the username stands in.
    expected: { id: "f1c8b1b2-5c0e-4f0a-9a8b-3d2e1f0a9b8c", name: "mkowalski", email: "maria.kowalski@example.com", image: null },
  },
  {
    preset: Facebook as Preset,
    id: "facebook",
    type: "oauth",
    authorization: "https://www.facebook.com/v21.0/dialog/oauth",
    token: "https://graph.facebook.com/v21.0/oauth/access_token",
    userinfo: "https://graph.facebook.com/v21.0/me",
    scope: "email",
    checks: ["pkce", "state"],
    clientAuth: "client_secret_post",
    expected: {
      id: "10224321098765432",
      name: "Ana Souza",
      email: "ana.souza@example.com",
      image:
        "https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10224321098765432&height=50&width=50&ext=1735400000&hash=AbYfz2example",
    },
  },
  {
    preset: Twitter as Preset,
    id: "twitter",
    type: "oauth",
    authorization: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    userinfo: "https://api.x.com/2/users/me",
    scope: "users.read tweet.read offline.access",
    checks: ["pkce", "state"],
    expected: {
      id: "2244994945",
      name: "X Dev",
      email: null,
      image: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
    },
  },
  {
    preset: LinkedIn as Preset,
    id: "linkedin",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    scope: "openid profile email",
    checks: ["state"],
    clientAuth: "client_secret_post",
    expected: {
      id: "782bbtaQ",
      name: "John Doe",
      email: "doe@email.com",
      image: "https://media.licdn.com/dms/image/C5F03AQHqK8v1wb7d7g/profile-displayphoto-shrink_100_100/0/1516256654000",
    },
  },
  {
    preset: Slack as Preset,
    id: "slack",
    type: "oidc",
    issuer: "https://slack.com",
    scope: "openid profile email",
    checks: ["nonce", "state"],
    expected: { id: "U0R7MFMJM", name: "krane", email: "krane@slack-corp.com", image: "https://secure.gravatar.com/avatar/c6.png" },
  },
  {
    preset: Twitch as Preset,
    id: "twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    scope: "openid user:read:email",
    clientAuth: "client_secret_post",
    expected: {
      id: "713936733",
      name: "twitchdev",
      email: "streamer@example.com",
      image: "https://static-cdn.jtvnw.net/jtv_user_pictures/8a6381c7-d0c0-4576-b179-38bd5ce1d6af-profile_image-150x150.png",
    },
  },
  {
    preset: Spotify as Preset,
    id: "spotify",
    type: "oauth",
    authorization: "https://accounts.spotify.com/authorize",
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    scope: "user-read-email",
    expected: {
      id: "lucasberg",
      name: "Lucas Berg",
      email: "lucas.berg@example.com",
      image: "https://i.scdn.co/image/ab67757000003b82example300",
    },
  },
  {
    preset: Zitadel as Preset,
    id: "zitadel",
    type: "oidc",
    issuer: null,
    expected: { id: "288734523436384307", name: "Road Runner", email: "road.runner@acme.com", image: null },
  },
  {
    preset: Authentik as Preset,
    id: "authentik",
    type: "oidc",
    issuer: null,
    expected: {
      id: "8b1f6e3d2c7a4b59a1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8",
      name: "authentik Default Admin",
      email: "akadmin@example.com",
      image: null,
    },
  },
  {
    preset: Cognito as Preset,
    id: "cognito",
    type: "oidc",
    issuer: null,
    // Neither `name` nor `preferred_username`: the Cognito username stands in.
    expected: { id: "aaaaaaaa-bbbb-cccc-dddd-example", name: "anaya", email: "anaya@example.com", image: null },
  },
  {
    preset: Bitbucket as Preset,
    id: "bitbucket",
    type: "oauth",
    authorization: "https://bitbucket.org/site/oauth2/authorize",
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: "https://api.bitbucket.org/2.0/user",
    scope: "account email",
    checks: ["pkce", "state"],
    expected: {
      id: "557058:1c9d3b2a-4e5f-6a7b-8c9d-0e1f2a3b4c5d",
      name: "Taylor Example",
      email: null,
      image:
        "https://secure.gravatar.com/avatar/0d0c3a8f8b1d4f1a9e3c2b1a0f9e8d7c?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTE-0.png",
    },
  },
  {
    preset: Reddit as Preset,
    id: "reddit",
    type: "oauth",
    authorization: "https://www.reddit.com/api/v1/authorize",
    token: "https://www.reddit.com/api/v1/access_token",
    userinfo: "https://oauth.reddit.com/api/v1/me",
    scope: "identity",
    checks: ["state"],
    expected: {
      id: "1w72",
      name: "spez",
      email: null,
      image: "https://styles.redditmedia.com/t5_2x9k4c/styles/profileIcon_snoo.png?width=256&height=256&crop=256:256,smart&s=3a1b2c3d4e5f",
    },
  },
];

function urlOf(endpoint: OAuthConfig["authorization"] | OAuthConfig["userinfo"]): string | undefined {
  return typeof endpoint === "string" ? endpoint : endpoint?.url;
}

function paramsOf(endpoint: OAuthConfig["authorization"]): Record<string, unknown> {
  return typeof endpoint === "object" ? (endpoint.params ?? {}) : {};
}

function envPrefix(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}_`;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

it("covers at least the twenty required presets", () => {
  expect(cases).toHaveLength(20);
  expect(new Set(cases.map((c) => c.id)).size).toBe(20);
});

describe.each(cases)("$id", (c) => {
  const provider = c.preset({ clientId: "client-id", clientSecret: "client-secret" });

  it("maps a recorded profile to a User", async () => {
    expect(await provider.profile?.(fixture(c.id), tokens)).toEqual(c.expected);
  });

  it("has its id, type, endpoints, scope, checks and client authentication", () => {
    expect(provider.id).toBe(c.id);
    expect(provider.type).toBe(c.type);
    expect(provider.name).toEqual(expect.any(String));
    expect(provider.issuer).toBe(c.issuer === null ? undefined : c.issuer);
    expect(urlOf(provider.authorization)).toBe(c.authorization);
    expect(urlOf(provider.token)).toBe(c.token);
    expect(urlOf(provider.userinfo)).toBe(c.userinfo);
    if (c.type === "oauth") expect(c.authorization && c.token && c.userinfo).toBeTruthy();
    if (c.type === "oidc") expect(c.userinfo).toBeUndefined(); // the profile is the validated ID token
    expect(paramsOf(provider.authorization).scope).toBe(c.scope);
    expect(provider.checks).toEqual(c.checks);
    expect(provider.client?.token_endpoint_auth_method).toBe(c.clientAuth);
    expect(provider.clientId).toBe("client-id");
    expect(provider.clientSecret).toBe("client-secret");
    for (const url of [provider.issuer, urlOf(provider.authorization), urlOf(provider.token), urlOf(provider.userinfo)]) {
      if (url) expect(new URL(url).protocol).toBe("https:");
    }
  });

  it(`reads ${envPrefix(c.id)}ID, _SECRET and _ISSUER`, () => {
    const prefix = envPrefix(c.id);
    const env = { [`${prefix}ID`]: "env-id", [`${prefix}SECRET`]: "env-secret", [`${prefix}ISSUER`]: "https://issuer.example.com" };
    for (const configured of [c.preset as Provider, c.preset() as Provider]) {
      const config: AuthConfig = { providers: [configured] };
      setEnvDefaults(env, config);
      const resolved = config.providers[0] as OAuthConfig;
      expect(resolved.id).toBe(c.id);
      expect(resolved.clientId).toBe("env-id");
      expect(resolved.clientSecret).toBe("env-secret");
      // An uncalled preset receives the env issuer as an option (it replaces a default issuer, e.g. an
      // Entra tenant); an already called preset keeps its own issuer and only fills in a missing one.
      expect(resolved.issuer).toBe(configured === c.preset ? "https://issuer.example.com" : (c.issuer ?? "https://issuer.example.com"));
      expect(paramsOf(resolved.authorization).scope).toBe(c.scope);
    }
  });

  it("merges authorization params and keeps the defaults", async () => {
    const custom = c.preset({ authorization: { params: { prompt: "consent" } }, client: { extra: "x" } });
    expect(paramsOf(custom.authorization)).toMatchObject({ prompt: "consent", ...(c.scope ? { scope: c.scope } : {}) });
    expect(urlOf(custom.authorization)).toBe(c.authorization);
    expect(custom.client).toEqual({ ...(c.clientAuth ? { token_endpoint_auth_method: c.clientAuth } : {}), extra: "x" });
    expect(custom.options).toEqual({ authorization: { params: { prompt: "consent" } }, client: { extra: "x" } });
    expect(await custom.profile?.(fixture(c.id), tokens)).toEqual(c.expected);
  });
});

describe("every OAuth / OIDC preset of the providers entry point", () => {
  /** The provider a factory makes with no options, or undefined when it needs some (Nodemailer's server). */
  const defaults = (factory: Preset): OAuthConfig | undefined => {
    try {
      return factory();
    } catch {
      return undefined;
    }
  };
  const presets = Object.values(providers)
    .filter((value): value is Preset => typeof value === "function" && value !== providers.OAuthProvider)
    .flatMap((preset) => {
      const provider = defaults(preset);
      return provider?.type === "oauth" || provider?.type === "oidc" ? [[provider.id, preset] as const] : [];
    });

  it("has at least the forty-one presets of issue 18 part A and before", () => {
    expect(presets.length).toBeGreaterThanOrEqual(41);
  });

  it.each(presets)("%s reads AUTH_<ID>_ID and _SECRET, called or uncalled", (id, preset) => {
    const prefix = envPrefix(id);
    for (const configured of [preset as Provider, preset() as Provider]) {
      const config: AuthConfig = { providers: [configured] };
      setEnvDefaults({ [`${prefix}ID`]: "env-id", [`${prefix}SECRET`]: "env-secret" }, config);
      expect(config.providers[0]).toMatchObject({ id, clientId: "env-id", clientSecret: "env-secret" });
    }
  });
});

describe("option merging", () => {
  it("a user profile() replaces the preset's", async () => {
    const provider = GitHub({ profile: (p) => ({ id: `gh-${p.id}`, name: p.login }) });
    expect(await provider.profile?.(fixture("github"), tokens)).toEqual({ id: "gh-583231", name: "octocat" });
  });

  it("a string endpoint replaces the default one; undefined options are ignored", () => {
    const provider = GitLab({ authorization: "https://gitlab.example.com/oauth/authorize?scope=api", token: undefined });
    expect(provider.authorization).toBe("https://gitlab.example.com/oauth/authorize?scope=api");
    expect(provider.token).toBe("https://gitlab.com/oauth/token");
  });

  it("GitLab's baseUrl, or the env issuer of an uncalled preset, moves every endpoint to a self-managed instance", () => {
    const urls = (p: OAuthConfig) => [p.issuer, urlOf(p.authorization), urlOf(p.token), urlOf(p.userinfo)];
    const expected = [
      "https://git.example.com/gl",
      ...["/oauth/authorize", "/oauth/token", "/api/v4/user"].map((path) => `https://git.example.com/gl${path}`),
    ];
    expect(urls(GitLab({ baseUrl: "https://git.example.com/gl/" }))).toEqual(expected);
    const config: AuthConfig = { providers: [GitLab as Provider] };
    setEnvDefaults({ AUTH_GITLAB_ISSUER: "https://git.example.com/gl" }, config);
    expect(urls(config.providers[0] as OAuthConfig)).toEqual(expected);
    expect(GitLab({ baseUrl: "https://git.example.com/gl", issuer: "https://other.example.com" }).issuer).toBe(
      "https://git.example.com/gl",
    );
    expect("baseUrl" in GitLab({ baseUrl: "https://git.example.com/gl" })).toBe(false);
  });

  it("an object endpoint with a url replaces the URL and keeps the default params", () => {
    const provider = GitLab({ authorization: { url: "https://gitlab.example.com/oauth/authorize" } });
    expect(provider.authorization).toEqual({ url: "https://gitlab.example.com/oauth/authorize", params: { scope: "read_user" } });
  });

  it("params given for a string default endpoint keep its URL", () => {
    const provider = Spotify({ userinfo: { params: { market: "SE" } } });
    expect(provider.userinfo).toEqual({ url: "https://api.spotify.com/v1/me", params: { market: "SE" } });
  });

  it("userinfo.request hooks survive merging of params", () => {
    const provider = GitHub({ userinfo: { params: { per_page: 1 } } });
    expect(typeof (provider.userinfo as { request?: unknown }).request).toBe("function");
  });

  it("mergeProviderOptions and OAuthProvider build a custom provider", () => {
    const custom = OAuthProvider({ id: "corp", name: "Corp", type: "oidc", issuer: "https://sso.corp.example", checks: ["pkce", "nonce"] });
    expect(custom).toMatchObject({ id: "corp", type: "oidc", issuer: "https://sso.corp.example", checks: ["pkce", "nonce"], options: {} });
    const merged = mergeProviderOptions(custom, { id: "corp-eu", issuer: "https://eu.sso.corp.example" });
    expect(merged).toMatchObject({ id: "corp-eu", issuer: "https://eu.sso.corp.example", checks: ["pkce", "nonce"] });
  });
});

describe("authorization URLs of presets with explicit endpoints", () => {
  it.each(cases.filter((c) => c.authorization))("$id", async (c) => {
    const provider = c.preset({ clientId: "client-id", clientSecret: "client-secret" });
    const start = await startAuthorization(contextFor(provider), {});
    const url = new URL(start.url);
    expect(`${url.origin}${url.pathname}`).toBe(c.authorization);
    expect(url.searchParams.get("scope")).toBe(c.scope);
    expect(url.searchParams.get("client_id")).toBe("client-id");
    expect(url.searchParams.get("redirect_uri")).toBe(`http://localhost:3000/auth/callback/${c.id}`);
    const checks = c.checks ?? (c.type === "oidc" ? ["pkce", "state", "nonce"] : ["pkce", "state"]);
    expect(url.searchParams.has("code_challenge")).toBe(checks.includes("pkce"));
    expect(url.searchParams.has("state")).toBe(checks.includes("state"));
    expect(start.cookies).toHaveLength(checks.length);
  });
});

describe("preset specifics", () => {
  function stubFetch(routes: Record<string, unknown>) {
    const calls: Array<{ url: string; authorization: string | null }> = [];
    vi.stubGlobal("fetch", async (input: string | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, authorization: new Headers(init?.headers).get("authorization") });
      if (!(url in routes)) return new Response("not found", { status: 404 });
      return Response.json(routes[url]);
    });
    return calls;
  }

  type UserinfoRequest = (context: { tokens: TokenSet; provider: OAuthConfig }) => Promise<Profile>;
  const requestOf = (provider: OAuthConfig) => (provider.userinfo as { request: UserinfoRequest }).request;

  it("github: a private email comes from /user/emails (the primary verified one)", async () => {
    const calls = stubFetch({
      "https://api.github.com/user": fixture("github"),
      "https://api.github.com/user/emails": fixture("github-emails"),
    });
    const provider = GitHub();
    const profile = await requestOf(provider)({ tokens, provider });
    expect(calls.map((c) => c.url)).toEqual(["https://api.github.com/user", "https://api.github.com/user/emails"]);
    expect(calls.every((c) => c.authorization === "Bearer at")).toBe(true);
    expect(await provider.profile?.(profile as never, tokens)).toMatchObject({ id: "583231", email: "octocat@github.com" });
  });

  it("github: a public email is used as is, without a second request", async () => {
    const calls = stubFetch({ "https://api.github.com/user": { ...fixture<Profile>("github"), email: "public@github.com" } });
    const provider = GitHub();
    const profile = await requestOf(provider)({ tokens, provider });
    expect(profile.email).toBe("public@github.com");
    expect(calls).toHaveLength(1);
  });

  it("bitbucket: the email comes from /2.0/user/emails", async () => {
    stubFetch({
      "https://api.bitbucket.org/2.0/user": fixture("bitbucket"),
      "https://api.bitbucket.org/2.0/user/emails": fixture("bitbucket-emails"),
    });
    const provider = Bitbucket();
    const profile = await requestOf(provider)({ tokens, provider });
    expect(await provider.profile?.(profile as never, tokens)).toMatchObject({ email: "taylor@example.com", name: "Taylor Example" });
  });

  it("apple: no name after the first sign-in (Apple sends `user` once)", async () => {
    const { user: _user, ...claims } = fixture<Record<string, unknown>>("apple");
    expect(await Apple().profile?.(claims as never, tokens)).toEqual({
      id: "001234.9f3c2b7e4a1d4c6f8e0a2b4c6d8e0f12.1234",
      name: null,
      email: "x4k2p9qz7m@privaterelay.appleid.com",
      image: null,
    });
  });

  it("apple: asks for form_post (the check cookies are then cross-site, see oidc-flow.test.ts)", () => {
    expect(paramsOf(Apple().authorization).response_mode).toBe("form_post");
  });

  it("discord: default avatars for users without one (new and legacy usernames)", () => {
    expect(discordAvatarUrl({ id: "80351110224678912", avatar: null, discriminator: "0" })).toBe(
      "https://cdn.discordapp.com/embed/avatars/5.png",
    );
    expect(discordAvatarUrl({ id: "1", avatar: null, discriminator: "1337" })).toBe("https://cdn.discordapp.com/embed/avatars/2.png");
    expect(discordAvatarUrl({ id: "1", avatar: "abc", discriminator: "0" })).toBe("https://cdn.discordapp.com/avatars/1/abc.png");
  });

  it("twitch: requests email, picture and username as ID token claims; its array scope is conformed", async () => {
    const claims = paramsOf(Twitch().authorization).claims as { id_token: Record<string, null> };
    expect(Object.keys(claims.id_token)).toEqual(expect.arrayContaining(["email", "picture", "preferred_username"]));
    const conformed = await conformTokenResponse(Response.json(fixture("twitch-token")));
    expect(((await conformed.json()) as { scope: string }).scope).toBe("openid user:read:email");
  });

  it("token response quirks are rewritten only for the presets that declare them", async () => {
    const conform = async (body: object, quirks?: Parameters<typeof conformTokenResponse>[1]) =>
      (await conformTokenResponse(Response.json(body), quirks)).json();
    // token-type-missing: bearer is added only where token_type is absent; a DPoP answer stays DPoP (and is refused later).
    expect(await conform({ access_token: "at" }, ["token-type-missing"])).toEqual({ access_token: "at", token_type: "bearer" });
    expect(await conform({ access_token: "at", token_type: "DPoP" }, ["token-type-missing"])).toEqual({
      access_token: "at",
      token_type: "DPoP",
    });
    expect(await conform({ access_token: "at" })).toEqual({ access_token: "at" });
    // data-envelope: exactly one wrapped entry is unwrapped; anything else is left for validation to refuse.
    const wrapped = { data: [{ access_token: "at", user_id: "1", permissions: "p" }] };
    expect(await conform(wrapped, ["data-envelope", "token-type-missing"])).toEqual({
      access_token: "at",
      user_id: "1",
      permissions: "p",
      token_type: "bearer",
    });
    expect(await conform({ data: [{ access_token: "a" }, { access_token: "b" }] }, ["data-envelope"])).toEqual({
      data: [{ access_token: "a" }, { access_token: "b" }],
    });
    expect(await conform(wrapped)).toEqual(wrapped);
  });

  it("mastodon: without an instance the configuration fails at start-up with InvalidEndpoints", () => {
    const provider = Mastodon({ clientId: "id", clientSecret: "secret" });
    expect(assertConfig({ providers: [provider], secret: "s".repeat(32), trustHost: true }, [provider], "jwt")).toBeInstanceOf(
      InvalidEndpoints,
    );
    const configured = Mastodon({ clientId: "id", clientSecret: "secret", baseUrl: "https://mastodon.social/" });
    expect(urlOf(configured.token)).toBe("https://mastodon.social/oauth/token");
    expect(assertConfig({ providers: [configured], secret: "s".repeat(32), trustHost: true }, [configured], "jwt")).toBeUndefined();
    const fromEnv: AuthConfig = { providers: [Mastodon as Provider] };
    setEnvDefaults({ AUTH_MASTODON_ISSUER: "https://fosstodon.org" }, fromEnv);
    expect(urlOf((fromEnv.providers[0] as OAuthConfig).userinfo)).toBe("https://fosstodon.org/api/v1/accounts/verify_credentials");
  });

  it("twitter: the userinfo URL asks for the profile image", () => {
    expect(Twitter().userinfo).toEqual({ url: "https://api.x.com/2/users/me", params: { "user.fields": "profile_image_url" } });
  });

  it("facebook: the userinfo URL asks for the fields the mapping reads", () => {
    expect(Facebook().userinfo).toEqual({ url: "https://graph.facebook.com/v21.0/me", params: { fields: "id,name,email,picture" } });
  });

  it("microsoft-entra-id: a tenant issuer from the env replaces the multi-tenant default", () => {
    const config: AuthConfig = { providers: [MicrosoftEntraID] };
    setEnvDefaults(
      { AUTH_MICROSOFT_ENTRA_ID_ISSUER: "https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0" },
      config,
    );
    expect((config.providers[0] as OAuthConfig).issuer).toBe("https://login.microsoftonline.com/b9419818-09af-49c2-b0c3-653adc1f376e/v2.0");
  });
});
