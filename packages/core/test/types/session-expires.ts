// Type test (compiled by `tsc`, never run): with database sessions the `session` callback gets
// `session.expires` as a Date (what `AdapterSession` says), with JWT sessions as an ISO string; the user
// in callbacks carries `emailVerified`.
import type { AdapterSession } from "@authlib/core/adapters";
import type { AuthConfig, DatabaseSessionParam } from "@authlib/core/types";

const config: AuthConfig = {
  providers: [],
  callbacks: {
    session(params) {
      if ("user" in params) {
        const iso: string = params.session.expires.toISOString();
        const verified: Date | null = params.user.emailVerified;
        return { ...params.session, expires: iso, emailVerified: verified?.toISOString() ?? null };
      }
      // @ts-expect-error a JWT session's expires is already a string
      params.session.expires.toISOString();
      return params.session;
    },
    jwt({ token, user }) {
      if (user) token.emailVerified = user.emailVerified ? user.emailVerified.toISOString() : null;
      return token;
    },
  },
};

// The snippet of SECURITY.md ("emailVerified in the session") compiles as documented.
const documented: AuthConfig = {
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.emailVerified = user.emailVerified?.toISOString() ?? null;
      return token;
    },
    session(params) {
      const verified = "token" in params ? params.token.emailVerified : (params.user.emailVerified?.toISOString() ?? null);
      return { ...params.session, emailVerified: verified };
    },
  },
};

const row: AdapterSession = { sessionToken: "t", userId: "u", expires: new Date() };
const param: DatabaseSessionParam = { ...row, user: { id: "u", email: null, emailVerified: null, role: "member" } };
const expires: Date = param.expires;
// @ts-expect-error the database session's expires is no string
const notString: string = param.expires;

export { config, documented, expires, notString };
