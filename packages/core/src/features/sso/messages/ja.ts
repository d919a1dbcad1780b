/** Japanese texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/ja */
import type { SsoTexts } from "./keys.js";

export const ja: SsoTexts = {
  "sso.continue": "SSO で続行",
  "sso.emailLabel": "勤務先のメールアドレス",
  "sso.emailHint": "組織が独自の ID プロバイダーでサインインしている場合は、そちらに進みます。",
  "sso.required": "このアドレスには組織のシングルサインオンが必要です。組織の SSO でサインインしてください。",
  "sso.failed":
    "組織の ID プロバイダーによるサインインが完了しませんでした。もう一度お試しいただくか、組織の管理者に接続の確認を依頼してください。",
};
