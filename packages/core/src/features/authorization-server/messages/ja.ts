/** Japanese texts of the authorization server's pages and notices (keys and placeholders as in `en.ts`). @module features/authorization-server/messages/ja */
import type { AuthorizationServerTexts } from "./keys.js";

export const ja: AuthorizationServerTexts = {
  "oauth.consent.title": "アカウントへのアクセスを許可しますか？",
  "oauth.consent.lead": "{client} があなたのアカウントの利用を求めています。",
  "oauth.consent.redirect": "選択後、{host} に戻ります。",
  "oauth.consent.device": "このリクエストは、コード {code} を表示しているデバイスからのものです。",
  "oauth.consent.scopes": "許可すると、次のことができるようになります:",
  "oauth.consent.signedInAs": "{account} としてログインしています。",
  "oauth.consent.allow": "許可する",
  "oauth.consent.deny": "拒否する",
  "oauth.consent.secondFactor":
    "このアクセスの一部には、2段階目の認証を使ったログインが必要です。2段階認証がオフの場合はアカウントでオンにしてから、もう一度ログインしてください。",
  "oauth.consent.expired": "このリクエストは期限切れです。アプリケーションからやり直してください。",
  "oauth.scope.openid": "あなたが誰であるかを知る",
  "oauth.scope.profile": "あなたの名前と写真を見る",
  "oauth.scope.email": "あなたのメールアドレスを見る",
  "oauth.scope.offline_access": "使っていないときもこのアクセスを保持する",
  "oauth.device.title": "デバイスを接続",
  "oauth.device.lead": "デバイスに表示されているコードを入力してください。",
  "oauth.device.code": "コード",
  "oauth.device.continue": "続行",
  "oauth.device.invalid": "このコードは無効か、使用済みか、期限切れです。デバイスのコードを確認するか、デバイスでやり直してください。",
  "oauth.device.approved": "完了しました。デバイスに戻ってください。",
  "oauth.device.denied": "デバイスへのアクセスは許可されませんでした。このページを閉じてかまいません。",
  "oauth.grants.title": "接続済みのアプリケーション",
  "oauth.grants.none": "あなたのアカウントにアクセスできるアプリケーションはありません。",
  "oauth.grants.since": "{date} に接続",
  "oauth.grants.lastUsed": "最終使用 {date}",
  "oauth.grants.revoke": "アクセスを取り消す",
  "oauth.grants.revoked": "このアプリケーションはあなたのアカウントにアクセスできなくなりました。",
  "oauth.grants.notFound": "このアプリケーションはあなたのアカウントに接続されていません。アクセスはすでに終了している可能性があります。",
  "mail.change.applicationAuthorized":
    "アプリケーションにあなたのアカウントへのアクセスが許可されました。アカウントページで接続済みのアプリケーションを確認してください。",
  "mail.change.applicationRevoked":
    "アプリケーションによるあなたのアカウントへのアクセスが取り消されました。心当たりがない場合は、アカウントページを確認し、パスワードを変更してください。",
};
