/** Spanish texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/es */
import type { SsoTexts } from "./keys.js";

export const es: SsoTexts = {
  "sso.continue": "Continuar con SSO",
  "sso.emailLabel": "Correo electrónico del trabajo",
  "sso.emailHint": "Si tu organización inicia sesión con su propio proveedor de identidad, continuarás allí.",
  "sso.required": "Tu organización exige su inicio de sesión único para esta dirección: inicia sesión con el SSO de tu organización.",
  "sso.failed":
    "El inicio de sesión a través del proveedor de identidad de tu organización no se completó. Inténtalo de nuevo o pide al administrador de tu organización que revise la conexión.",
};
