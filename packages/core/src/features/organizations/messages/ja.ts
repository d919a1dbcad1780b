/** Japanese texts of the organizations' pages and mails (keys and placeholders as in `en.ts`). @module features/organizations/messages/ja */
import type { OrganizationTexts } from "./keys.js";

export const ja: OrganizationTexts = {
  "organization.mail.subject": "{host} の {organization} への招待",
  "organization.mail.heading": "{organization} への招待が届きました:",
  "organization.mail.button": "招待を開く",
  "organization.mail.note":
    "このリンクはこのアドレスで一度だけ、期限まで使えます。心当たりがない場合はこのメールを無視してください。承諾するまで何も起こりません。",
};
