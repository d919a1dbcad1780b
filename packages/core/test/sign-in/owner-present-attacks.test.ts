/**
 * The owner-present rule against a stolen session, on PGlite with a real SMTP server (the same suite runs on
 * a PostgreSQL server in packages/hosted-db-adapter/test/owner-present-postgres.test.ts).
 */
import { afterAll, beforeAll } from "vitest";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { ownerPresentSuite } from "../helpers/owner-present-suite.js";
import { startSmtpServer } from "../helpers/smtp.js";
import type { Smtp } from "../password/helpers.js";

let smtp: Smtp;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
  await closeSharedPglite();
});

ownerPresentSuite("PGlite", () => smtp, freshDatabase);
