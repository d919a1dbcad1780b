// Type test (compiled by `tsc`, never run): with database sessions the `session` callback gets
// `session.expires` as a Date (what `AdapterSession` says), with JWT sessions as an ISO string; the user
// in callbacks carries `emailVerified`.
import type { AdapterSession } from "@authlib/core/adapters";
import type { AuthConfig, DatabaseSessionParam } from "@authlib/core/types";

const config: AuthConfig = {
  providers: [],
  callbacks: {
    session({ session, ...rest }) {
      if ("user" in rest) {
        const iso: string = session.expires.toISOString();
        const verified: Date | null = rest.user.emailVerified;
        return { ...session, expires: iso, user: { ...session.user, email: verified ? rest.user.email : null } };
      }
      // @ts-expect-error a JWT session's expires is already a string
      session.expires.toISOString();
      return session;
    },
    jwt({ token, user }) {
      if (user) token.emailVerified = user.emailVerified ? user.emailVerified.toISOString() : null;
      return token;
    },
  },
};

const row: AdapterSession = { sessionToken: "t", userId: "u", expires: new Date() };
const param: DatabaseSessionParam = { ...row, user: { id: "u", email: null, emailVerified: null } };
const expires: Date = param.expires;
// @ts-expect-error the database session's expires is no string
const notString: string = param.expires;

export { config, expires, notString };
