/** Chinese texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/zh */
import type { SsoTexts } from "./keys.js";

export const zh: SsoTexts = {
  "sso.continue": "使用 SSO 继续",
  "sso.emailLabel": "工作邮箱",
  "sso.emailHint": "如果你的组织通过自己的身份提供商登录，你将在那里继续。",
  "sso.required": "你的组织要求此地址使用其单点登录：请使用你组织的 SSO 登录。",
  "sso.failed": "通过你组织的身份提供商登录未能完成。请重试，或请你组织的管理员检查该连接。",
};
