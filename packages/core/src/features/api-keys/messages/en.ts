/** English texts of the API keys' account section and owner notice (keys and placeholders as in `en.ts`). @module features/api-keys/messages/en */
import type { ApiKeyTexts } from "./keys.js";

export const en: ApiKeyTexts = {
  "apiKeys.title": "API keys",
  "apiKeys.none": "You have no API keys.",
  "apiKeys.created": "Created {date}",
  "apiKeys.lastUsed": "last used {date}",
  "apiKeys.neverUsed": "never used",
  "apiKeys.expires": "expires {date}",
  "apiKeys.neverExpires": "never expires",
  "apiKeys.revoke": "Revoke",
  "apiKeys.revoked": "The API key was revoked.",
  "apiKeys.create": "Create a key",
  "apiKeys.name": "Name",
  "apiKeys.scopes": "Scopes",
  "apiKeys.newKey": "Your new API key",
  "apiKeys.copyHint": "Copy it now and keep it somewhere safe: it is shown only once.",
  "apiKeys.notFound": "This API key does not exist or was revoked already.",
  "apiKeys.invalid": "This key cannot be made: check its name, scopes and lifetime, or revoke a key first.",
  "apiKeys.organizationTitle": "Organization API keys",
  "mail.change.apiKeyCreated":
    "An API key was created for your account. If this was not you, revoke it on your account page and change your password.",
  "mail.change.apiKeyRevoked":
    "An API key of your account was revoked. If that was not you, check your account page and change your password.",
};
