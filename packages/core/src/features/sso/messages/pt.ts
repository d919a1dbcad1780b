/** Portuguese texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/pt */
import type { SsoTexts } from "./keys.js";

export const pt: SsoTexts = {
  "sso.continue": "Continuar com SSO",
  "sso.emailLabel": "E-mail de trabalho",
  "sso.emailHint": "Se a sua organização entra com o próprio provedor de identidade, você continuará lá.",
  "sso.required": "A sua organização exige o login único dela para este endereço: entre com o SSO da sua organização.",
  "sso.failed":
    "O login pelo provedor de identidade da sua organização não foi concluído. Tente novamente ou peça ao administrador da sua organização que verifique a conexão.",
};
