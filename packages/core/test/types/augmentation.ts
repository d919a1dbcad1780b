// Type test (compiled by `tsc`, never run): apps extend Session, User and JWT by module augmentation.
import type { JWT } from "@authlib/core/jwt";
import type { AuthConfig, DefaultSession, Session, User } from "@authlib/core/types";

declare module "@authlib/core/types" {
  interface Session {
    user?: { role: "admin" | "member" } & DefaultSession["user"];
  }
  interface User {
    role?: "admin" | "member";
  }
}
declare module "@authlib/core/jwt" {
  interface JWT {
    role?: "admin" | "member";
  }
}

const config: AuthConfig = {
  providers: [],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.role = user.role;
      return token;
    },
    session({ session, ...rest }) {
      if ("token" in rest && session.user) session.user.role = rest.token.role ?? "member";
      return session;
    },
  },
};

const session: Session = { expires: "2030-01-01T00:00:00.000Z", user: { role: "admin", name: "Ada" } };
const role: "admin" | "member" | undefined = session.user?.role;
const token: JWT = { sub: "1", role: "member" };
const user: User = { id: "1", role: "admin" };
// @ts-expect-error an unknown role is a type error once augmented
const wrong: JWT = { role: "owner" };

export { config, role, token, user, wrong };
