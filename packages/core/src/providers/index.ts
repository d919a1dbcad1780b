/**
 * Every built-in provider. Import one by its own path (`@authlib/core/providers/github`) to load only
 * what you use; this index is for discovery and tooling.
 *
 * @module providers
 */
export { default as Apple } from "./apple.js";
export { default as Auth0 } from "./auth0.js";
export { default as Authentik } from "./authentik.js";
export { default as BattleNet } from "./battlenet.js";
export { default as Bitbucket } from "./bitbucket.js";
export { default as Cognito } from "./cognito.js";
export { default as Credentials } from "./credentials.js";
export { default as Descope } from "./descope.js";
export { default as Discord } from "./discord.js";
export { default as DuendeIdentityServer } from "./duende-identity-server.js";
export { default as Email } from "./email.js";
export { default as Facebook } from "./facebook.js";
export { default as Frontegg } from "./frontegg.js";
export { default as FusionAuth } from "./fusionauth.js";
export { default as GitHub } from "./github.js";
export { default as GitLab } from "./gitlab.js";
export { default as Google } from "./google.js";
export { default as Keycloak } from "./keycloak.js";
export { default as Kinde } from "./kinde.js";
export { default as LinkedIn } from "./linkedin.js";
export { default as Logto } from "./logto.js";
export { default as Mailgun } from "./mailgun.js";
export { default as MicrosoftEntraID } from "./microsoft-entra-id.js";
export { default as Nextcloud } from "./nextcloud.js";
export { default as Nodemailer } from "./nodemailer.js";
export { OAuthProvider } from "./oauth.js";
export { default as Okta } from "./okta.js";
export { default as OneLogin } from "./onelogin.js";
export { default as OryHydra } from "./ory-hydra.js";
export { default as Passkey } from "./passkey.js";
export { default as PingId } from "./ping-id.js";
export { default as Postmark } from "./postmark.js";
export { default as Reddit } from "./reddit.js";
export { default as Resend } from "./resend.js";
export { default as SendGrid } from "./sendgrid.js";
export { default as Slack } from "./slack.js";
export { default as Spotify } from "./spotify.js";
export { default as Strava } from "./strava.js";
export { default as TikTok } from "./tiktok.js";
export { default as Twitch } from "./twitch.js";
export { default as Twitter } from "./twitter.js";
export type * from "./types.js";
export { default as Vercel } from "./vercel.js";
export { default as Vk } from "./vk.js";
export { default as WeChat } from "./wechat.js";
export { default as Wikimedia } from "./wikimedia.js";
export { default as WordPress } from "./wordpress.js";
export { default as WorkOS } from "./workos.js";
export { default as Yandex } from "./yandex.js";
export { default as Zitadel } from "./zitadel.js";
export { default as Zoom } from "./zoom.js";
