/**
 * Strava: https://developers.strava.com/docs/authentication/ (authorize, token exchange answering the
 * summary athlete with the tokens) and https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete.
 */
import Strava from "../../../src/providers/strava.js";
import type { PresetFixture } from "../preset-harness.js";

const athlete = {
  id: 134815,
  username: "marianne_t",
  resource_state: 2,
  firstname: "Marianne",
  lastname: "Teutenberg",
  city: "San Francisco",
  state: "CA",
  country: "US",
  sex: "F",
  premium: true,
  summit: true,
  created_at: "2017-11-14T02:30:05Z",
  updated_at: "2018-02-06T19:32:20Z",
  profile_medium: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/medium.jpg",
  profile: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/134815/large.jpg",
};

export default {
  provider: (origin) =>
    Strava({
      authorization: { url: `${origin}/oauth/authorize` },
      token: `${origin}/oauth/token`,
      userinfo: `${origin}/api/v3/athlete`,
    }),
  authorization: { path: "/oauth/authorize", params: { scope: "read", approval_prompt: "auto" }, checks: ["state"] },
  token: {
    path: "/oauth/token",
    clientAuth: "client_secret_post",
    response: ({ accessToken }) => ({
      token_type: "Bearer",
      expires_at: 1568775134,
      expires_in: 21600,
      refresh_token: "e5n567567",
      access_token: accessToken,
      athlete,
    }),
  },
  routes: { "GET /api/v3/athlete": { body: athlete } },
  expected: {
    user: { id: "134815", name: "Marianne Teutenberg", email: null, image: athlete.profile },
    emailTrusted: false,
  },
} satisfies PresetFixture;
