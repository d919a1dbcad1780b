/** Japanese texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/ja */
import type { SsoTexts } from "./keys.js";

export const ja: SsoTexts = {
  "sso.continue": "SSO で続行",
  "sso.emailLabel": "勤務先のメールアドレス",
  "sso.emailHint": "組織が独自の ID プロバイダーでサインインしている場合は、そちらに進みます。",
  "sso.required": "このアドレスには組織のシングルサインオンが必要です。組織の SSO でサインインしてください。",
  "sso.failed":
    "組織の ID プロバイダーによるサインインが完了しませんでした。もう一度お試しいただくか、組織の管理者に接続の確認を依頼してください。",
  "sso.title": "シングルサインオン",
  "sso.none": "この組織にはまだ SSO 接続がありません。",
  "sso.created": "SSO 接続を追加しました。",
  "sso.invalid":
    "この接続を保存できませんでした。各項目（https の発行者、クライアント ID とシークレット）とご自身のロールを確認してください。",
  "sso.issuer": "発行者",
  "sso.idpEntityId": "ID プロバイダーのエンティティ ID",
  "sso.redirectUri": "ID プロバイダーに登録するリダイレクト URI",
  "sso.spCertificate": "サービスプロバイダーの証明書",
  "sso.spEntityId": "サービスプロバイダーのエンティティ ID（メタデータ URL）",
  "sso.acsUrl": "アサーションコンシューマーサービス（ACS）の URL",
  "sso.requiredBadge": "SSO のみ",
  "sso.requiredLabel": "この組織の検証済みドメインのアドレスに SSO を必須にする",
  "sso.addOidc": "OIDC 接続を追加",
  "sso.name": "名前",
  "sso.clientId": "クライアント ID",
  "sso.clientSecret": "クライアントシークレット",
  "sso.addSaml": "SAML 接続を追加",
  "sso.metadataXml": "ID プロバイダーのメタデータ (XML)",
  "sso.metadataHint":
    "ID プロバイダーが公開しているメタデータ文書全体を貼り付けてください。エンティティ ID、サインオン URL、署名証明書はそこから読み取られます。",
  "sso.metadataUrl": "または ID プロバイダーが公開しているメタデータの URL（https）",
  "sso.defaultRole": "この接続でサインインするメンバーのロール",
  "sso.delete": "削除",
  "sso.deleted": "SSO 接続を削除しました。",
  "sso.invalidMetadata":
    "ID プロバイダーのメタデータを読み取れませんでした。サインオン URL (HTTP-Redirect) と署名証明書を含む、SAML 2.0 ID プロバイダー 1 つ分の XML 文書全体を貼り付けてください。",
  "sso.notFound": "この接続は存在しないか、すでに削除されています。",
  "sso.forbidden":
    "ここではあなたのロールでこの操作はできないか、組織の有効な SCIM トークンが上限に達しています。先に 1 つ取り消してください。",
  "sso.recentSignIn": "SCIM トークンの作成や取り消しには最近のサインインが必要です。もう一度サインインしてから、やり直してください。",
  "sso.signInAgain": "もう一度サインイン",
  "sso.scimTitle": "SCIM プロビジョニング",
  "sso.scimIntro":
    "ID プロバイダーは SCIM 2.0 でこの組織のユーザーを作成、更新、削除します。下のベース URL とトークンを ID プロバイダーに設定してください。",
  "sso.scimBaseUrl": "SCIM ベース URL",
  "sso.scimNone": "この組織には SCIM トークンがありません。",
  "sso.scimCreated": "{date} に {creator} が作成",
  "sso.scimLastUsed": "最終使用 {date}",
  "sso.scimNeverUsed": "未使用",
  "sso.scimCreate": "SCIM トークンを作成",
  "sso.scimNewToken": "新しい SCIM トークン",
  "sso.scimCopyHint": "今すぐ ID プロバイダーにコピーしてください。表示されるのはこの 1 回だけです。",
  "sso.scimRevoke": "取り消す",
  "sso.scimRevoked": "SCIM トークンを取り消しました。ID プロバイダーはもう使用できません。",
  "sso.scimNotFound": "この SCIM トークンは存在しないか、すでに取り消されています。",
};
