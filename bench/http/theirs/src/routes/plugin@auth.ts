/** The reference library for the benchmark app: the same configuration as ours (bench/http/ours). */

import { QwikAuth$ } from "@auth/qwik";
import Credentials from "@auth/qwik/providers/credentials";

/** One configuration object for the process, as an app would keep it (the demo does the same). */
const config = {
  // The benchmark's fixed secret (bench/inprocess.mjs SECRET): the harness mints the session cookie with it.
  secret: "bench-secret-0123456789abcdef0123456789",
  trustHost: true,
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      authorize: async (credentials) => ({ id: "user-1", name: "Ada Lovelace", email: String(credentials.email) }),
    }),
  ],
};

export const { onRequest, useSession } = QwikAuth$(() => config);
