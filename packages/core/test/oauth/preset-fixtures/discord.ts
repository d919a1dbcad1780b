/**
 * Discord: https://discord.com/developers/docs/topics/oauth2#authorization-code-grant (token exchange)
 * and https://discord.com/developers/docs/resources/user#get-current-user (`GET /users/@me`, recorded in
 * `test/oauth/fixtures/discord.json`, `verified: true`).
 */
import Discord from "../../../src/providers/discord.js";
import { type PresetFixture, recorded } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Discord({
      authorization: { url: `${origin}/oauth2/authorize` },
      token: `${origin}/api/oauth2/token`,
      userinfo: `${origin}/api/users/@me`,
    }),
  authorization: { path: "/oauth2/authorize", params: { scope: "identify email" }, checks: ["pkce", "state"] },
  token: {
    path: "/api/oauth2/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 604800,
      refresh_token: "D43f5y0ahjqew82jZ4NViEr2YafMKhue",
      scope: "identify email",
    }),
  },
  routes: { "GET /api/users/@me": { body: recorded("discord") } },
  expected: {
    user: {
      id: "80351110224678912",
      name: "Nelly",
      email: "nelly@discord.com",
      image: "https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif",
    },
    emailTrusted: true,
  },
} satisfies PresetFixture;
