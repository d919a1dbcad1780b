/**
 * Yandex ID: https://yandex.com/dev/id/doc/en/codes/code-url (authorize, token) and
 * https://yandex.com/dev/id/doc/en/user-information (`GET /info?format=json` with
 * `Authorization: OAuth <token>`; the avatar URL is built from `default_avatar_id`).
 */
import Yandex from "../../../src/providers/yandex.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Yandex({
      authorization: { url: `${origin}/authorize` },
      token: `${origin}/token`,
      userinfo: { url: `${origin}/info` },
    }),
  authorization: { path: "/authorize", params: { scope: "login:info login:email login:avatar" }, checks: ["pkce", "state"] },
  token: {
    path: "/token",
    clientAuth: "client_secret_basic",
    response: ({ accessToken }) => ({
      token_type: "bearer",
      access_token: accessToken,
      expires_in: 124234123534,
      refresh_token: "1:GN686QVt0mmakDd9:A4pYuW9LGk0_UnlrMIWklk",
    }),
  },
  routes: {
    "GET /info": {
      auth: { header: "authorization", scheme: "OAuth" },
      body: (request) => {
        if (request.url.searchParams.get("format") !== "json") throw new Error("format=json not asked");
        return {
          login: "ivan",
          old_social_login: "uid-mmzxrnry",
          default_email: "test@yandex.ru",
          id: "1000034426",
          client_id: "4760187d81bc4b7799476b42b5103713",
          emails: ["test@yandex.ru", "other-test@yandex.ru"],
          default_avatar_id: "131652443",
          is_avatar_empty: false,
          first_name: "Ivan",
          last_name: "Ivanov",
          display_name: "Ivan",
          real_name: "Ivan Ivanov",
          sex: "male",
          psuid: "1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge",
        };
      },
    },
  },
  expected: {
    user: { id: "1000034426", name: "Ivan", email: "test@yandex.ru", image: "https://avatars.yandex.net/get-yapic/131652443/islands-200" },
    emailTrusted: false,
  },
} satisfies PresetFixture;
