/** Japanese texts of the API keys' account section and owner notice (keys and placeholders as in `en.ts`). @module features/api-keys/messages/ja */
import type { ApiKeyTexts } from "./keys.js";

export const ja: ApiKeyTexts = {
  "apiKeys.title": "API キー",
  "apiKeys.none": "API キーはありません。",
  "apiKeys.created": "作成日 {date}",
  "apiKeys.lastUsed": "最終使用 {date}",
  "apiKeys.neverUsed": "未使用",
  "apiKeys.expires": "有効期限 {date}",
  "apiKeys.neverExpires": "有効期限なし",
  "apiKeys.revoke": "無効にする",
  "apiKeys.revoked": "API キーを無効にしました。",
  "apiKeys.create": "キーを作成",
  "apiKeys.name": "名前",
  "apiKeys.scopes": "スコープ",
  "apiKeys.newKey": "新しい API キー",
  "apiKeys.copyHint": "今すぐコピーして安全な場所に保管してください。表示されるのはこの一度だけです。",
  "apiKeys.notFound": "この API キーは存在しないか、すでに無効になっています。",
  "apiKeys.invalid": "このキーは作成できません。名前、スコープ、有効期間を確認するか、先にキーを無効にしてください。",
  "apiKeys.organizationTitle": "組織の API キー",
  "mail.change.apiKeyCreated":
    "あなたのアカウントに API キーが作成されました。心当たりがない場合は、アカウントページで無効にし、パスワードを変更してください。",
  "mail.change.apiKeyRevoked":
    "あなたのアカウントの API キーが取り消されました。心当たりがない場合は、アカウントページを確認し、パスワードを変更してください。",
};
