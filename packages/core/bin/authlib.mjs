#!/usr/bin/env node
// The `authlib` command (`npx authlib …`): it starts the built CLI (dist/cli/main.js). It lives outside
// dist/ so that npm links it in a fresh clone of the repository too, where dist/ is built after
// `npm install`; there, before the build, it says how to build instead of npx answering E404.
const main = new URL("../dist/cli/main.js", import.meta.url);
try {
  await import(main.href);
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes(main.pathname)) throw error;
  process.stderr.write("authlib: the command line is not built yet: run `npm run build` first (in the authlib repository).\n");
  process.exit(1);
}
