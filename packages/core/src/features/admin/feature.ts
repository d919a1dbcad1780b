/**
 * The operator's tools (docs/admin.md): find, create, change, ban and delete users, and act as one with a
 * trail. Turned on by `admin: {…}`; who is an admin is the app's decision (`access.ts`). Its code loads
 * with the first request to it.
 *
 * @module features/admin/feature
 */
import { defineFeature } from "../define.js";

export const adminFeature = defineFeature({
  name: "admin",
  enabled: (config) => config.admin !== undefined,
  turnedOnBy: "admin",
  operations: [],
});
