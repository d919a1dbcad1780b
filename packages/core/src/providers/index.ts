/**
 * Every built-in provider. Import one by its own path (`@authlib/core/providers/github`) to load only
 * what you use; this index is for discovery and tooling.
 *
 * @module providers
 */
export { default as Apple } from "./apple.js";
export { default as Atlassian } from "./atlassian.js";
export { default as Auth0 } from "./auth0.js";
export { default as Authentik } from "./authentik.js";
export { default as AzureADB2C } from "./azure-ad-b2c.js";
export { default as Bitbucket } from "./bitbucket.js";
export { default as Box } from "./box.js";
export { default as Cognito } from "./cognito.js";
export { default as Coinbase } from "./coinbase.js";
export { default as Credentials } from "./credentials.js";
export { default as Discord } from "./discord.js";
export { default as Dropbox } from "./dropbox.js";
export { default as Email } from "./email.js";
export { default as Facebook } from "./facebook.js";
export { default as Figma } from "./figma.js";
export { default as GitHub } from "./github.js";
export { default as GitLab } from "./gitlab.js";
export { default as Google } from "./google.js";
export { default as HubSpot } from "./hubspot.js";
export { default as HuggingFace } from "./huggingface.js";
export { default as Instagram } from "./instagram.js";
export { default as Kakao } from "./kakao.js";
export { default as Keycloak } from "./keycloak.js";
export { default as Kick } from "./kick.js";
export { default as Line } from "./line.js";
export { default as Linear } from "./linear.js";
export { default as LinkedIn } from "./linkedin.js";
export { default as Mastodon } from "./mastodon.js";
export type { PresetMeta } from "./meta.js";
export { default as MicrosoftEntraID } from "./microsoft-entra-id.js";
export { default as Naver } from "./naver.js";
export { default as Nodemailer } from "./nodemailer.js";
export { default as Notion } from "./notion.js";
export { OAuthProvider } from "./oauth.js";
export { default as Okta } from "./okta.js";
export { default as Passkey } from "./passkey.js";
export { default as Patreon } from "./patreon.js";
export { default as PayPal } from "./paypal.js";
export { default as Pinterest } from "./pinterest.js";
export { default as Reddit } from "./reddit.js";
export { default as Roblox } from "./roblox.js";
export { default as Salesforce } from "./salesforce.js";
export { default as Slack } from "./slack.js";
export { default as Spotify } from "./spotify.js";
export { default as Twitch } from "./twitch.js";
export { default as Twitter } from "./twitter.js";
export type * from "./types.js";
export { default as Zitadel } from "./zitadel.js";
