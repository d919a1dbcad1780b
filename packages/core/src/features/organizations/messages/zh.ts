/** Chinese texts of the organizations' pages and mails (keys and placeholders as in `en.ts`). @module features/organizations/messages/zh */
import type { OrganizationTexts } from "./keys.js";

export const zh: OrganizationTexts = {
  "organization.mail.subject": "邀请您加入 {host} 上的 {organization}",
  "organization.mail.heading": "邀请您加入 {organization}，位于",
  "organization.mail.button": "打开邀请",
  "organization.mail.note":
    "此链接仅对该地址有效，只能使用一次，过期即失效。如果您没有预料到此邀请，请忽略此邮件：在您接受之前不会发生任何事情。",
};
