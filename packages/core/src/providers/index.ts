/**
 * Every built-in provider. Import one by its own path (`@authlib/core/providers/github`) to load only
 * what you use; this index is for discovery and tooling.
 *
 * @module providers
 */

// The types their signatures name, for apps that type their own profile callbacks and options.
export type { AppleProfile } from "./apple.js";
export { default as Apple } from "./apple.js";
export type { Auth0Profile } from "./auth0.js";
export { default as Auth0 } from "./auth0.js";
export type { AuthentikProfile } from "./authentik.js";
export { default as Authentik } from "./authentik.js";
export type { BitbucketProfile } from "./bitbucket.js";
export { default as Bitbucket } from "./bitbucket.js";
export type { CognitoProfile } from "./cognito.js";
export { default as Cognito } from "./cognito.js";
export type { CredentialsOptions } from "./credentials.js";
export { default as Credentials } from "./credentials.js";
export type { DiscordProfile } from "./discord.js";
export { default as Discord } from "./discord.js";
export type { EmailOptions } from "./email.js";
export { default as Email } from "./email.js";
export type { FacebookProfile } from "./facebook.js";
export { default as Facebook } from "./facebook.js";
export type { GitHubEmail, GitHubProfile } from "./github.js";
export { default as GitHub } from "./github.js";
export type { GitLabProfile } from "./gitlab.js";
export { default as GitLab } from "./gitlab.js";
export type { GoogleProfile } from "./google.js";
export { default as Google } from "./google.js";
export type { KeycloakProfile } from "./keycloak.js";
export { default as Keycloak } from "./keycloak.js";
export type { LinkedInProfile } from "./linkedin.js";
export { default as LinkedIn } from "./linkedin.js";
export type { MicrosoftEntraIDProfile } from "./microsoft-entra-id.js";
export { default as MicrosoftEntraID } from "./microsoft-entra-id.js";
export type { NodemailerOptions } from "./nodemailer.js";
export { default as Nodemailer } from "./nodemailer.js";
export type { OAuthPresetConfig, OAuthUserConfig, StandardClaims } from "./oauth.js";
export { OAuthProvider } from "./oauth.js";
export type { OktaProfile } from "./okta.js";
export { default as Okta } from "./okta.js";
export type { PasskeyOptions } from "./passkey.js";
export { default as Passkey } from "./passkey.js";
export type { RedditProfile } from "./reddit.js";
export { default as Reddit } from "./reddit.js";
export type { SlackProfile } from "./slack.js";
export { default as Slack } from "./slack.js";
export type { SpotifyImage, SpotifyProfile } from "./spotify.js";
export { default as Spotify } from "./spotify.js";
export type { TwitchProfile } from "./twitch.js";
export { default as Twitch } from "./twitch.js";
export type { TwitterProfile } from "./twitter.js";
export { default as Twitter } from "./twitter.js";
export type * from "./types.js";
export type { ZitadelProfile } from "./zitadel.js";
export { default as Zitadel } from "./zitadel.js";
