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
};
