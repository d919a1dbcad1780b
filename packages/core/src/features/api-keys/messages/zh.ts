/** Chinese texts of the API keys' account section and owner notice (keys and placeholders as in `en.ts`). @module features/api-keys/messages/zh */
import type { ApiKeyTexts } from "./keys.js";

export const zh: ApiKeyTexts = {
  "apiKeys.title": "API 密钥",
  "apiKeys.none": "你没有 API 密钥。",
  "apiKeys.created": "创建于 {date}",
  "apiKeys.lastUsed": "上次使用 {date}",
  "apiKeys.neverUsed": "从未使用",
  "apiKeys.expires": "{date} 过期",
  "apiKeys.neverExpires": "永不过期",
  "apiKeys.revoke": "撤销",
  "apiKeys.revoked": "API 密钥已撤销。",
  "apiKeys.create": "创建密钥",
  "apiKeys.name": "名称",
  "apiKeys.scopes": "权限范围",
  "apiKeys.newKey": "你的新 API 密钥",
  "apiKeys.copyHint": "请立即复制并妥善保管：它只显示这一次。",
  "apiKeys.notFound": "此 API 密钥不存在或已被撤销。",
  "apiKeys.invalid": "无法创建此密钥：请检查名称、权限范围和有效期，或先撤销一个密钥。",
  "apiKeys.organizationTitle": "组织的 API 密钥",
  "mail.change.apiKeyCreated": "你的账号创建了一个 API 密钥。如果这不是你本人操作，请在账号页面撤销它并修改密码。",
  "mail.change.apiKeyRevoked": "你账号的一个 API 密钥已被撤销。如果这不是你本人操作，请查看账号页面并修改密码。",
};
