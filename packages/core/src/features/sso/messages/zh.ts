/** Chinese texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/zh */
import type { SsoTexts } from "./keys.js";

export const zh: SsoTexts = {
  "sso.continue": "使用 SSO 继续",
  "sso.emailLabel": "工作邮箱",
  "sso.emailHint": "如果你的组织通过自己的身份提供商登录，你将在那里继续。",
  "sso.required": "你的组织要求此地址使用其单点登录：请使用你组织的 SSO 登录。",
  "sso.failed": "通过你组织的身份提供商登录未能完成。请重试，或请你组织的管理员检查该连接。",
  "sso.title": "单点登录",
  "sso.none": "该组织还没有 SSO 连接。",
  "sso.created": "已添加 SSO 连接。",
  "sso.invalid": "无法保存此连接：请检查各字段（https 颁发者、客户端 ID 和密钥）以及你的角色。",
  "sso.issuer": "颁发者",
  "sso.idpEntityId": "身份提供商实体 ID",
  "sso.redirectUri": "需在你的身份提供商处注册的重定向 URI",
  "sso.spCertificate": "服务提供商证书",
  "sso.spEntityId": "服务提供商实体 ID（及元数据 URL）",
  "sso.acsUrl": "断言使用者服务（ACS）URL",
  "sso.requiredBadge": "仅限 SSO",
  "sso.requiredLabel": "要求此组织已验证域名下的地址使用 SSO",
  "sso.addOidc": "添加 OIDC 连接",
  "sso.name": "名称",
  "sso.clientId": "客户端 ID",
  "sso.clientSecret": "客户端密钥",
};
