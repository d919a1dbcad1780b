/**
 * VK: the authorization code flow (https://dev.vk.com/en/api/access-token/authcode-flow-user), whose
 * token response carries `user_id` and `email` and no `token_type`, and `users.get`
 * (https://dev.vk.com/en/method/users.get), called with the token as a form parameter.
 */
import Vk, { VK_API_VERSION } from "../../../src/providers/vk.js";
import type { PresetFixture } from "../preset-harness.js";

export default {
  provider: (origin) =>
    Vk({
      authorization: { url: `${origin}/authorize` },
      token: `${origin}/access_token`,
      userinfo: { url: `${origin}/method/users.get` },
    }),
  authorization: { path: "/authorize", params: { scope: "email", v: VK_API_VERSION }, checks: ["state"] },
  token: {
    path: "/access_token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({ access_token: accessToken, expires_in: 86399, user_id: 743784474, email: "ivan@example.ru" }),
  },
  routes: {
    "POST /method/users.get": {
      auth: { form: "access_token" },
      body: (request) => {
        if (request.body.get("v") !== VK_API_VERSION) throw new Error("no API version");
        return {
          response: [
            {
              id: 743784474,
              first_name: "Ivan",
              last_name: "Petrov",
              can_access_closed: true,
              is_closed: false,
              photo_100: "https://sun1-17.userapi.com/s/v1/ig2/example.jpg?size=100x100",
              screen_name: "id743784474",
            },
          ],
        };
      },
    },
  },
  expected: {
    user: {
      id: "743784474",
      name: "Ivan Petrov",
      email: "ivan@example.ru",
      image: "https://sun1-17.userapi.com/s/v1/ig2/example.jpg?size=100x100",
    },
    emailTrusted: false,
  },
} satisfies PresetFixture;
