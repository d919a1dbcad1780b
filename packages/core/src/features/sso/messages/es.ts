/** Spanish texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/es */
import type { SsoTexts } from "./keys.js";

export const es: SsoTexts = {
  "sso.continue": "Continuar con SSO",
  "sso.emailLabel": "Correo electrónico del trabajo",
  "sso.emailHint": "Si tu organización inicia sesión con su propio proveedor de identidad, continuarás allí.",
  "sso.required": "Tu organización exige su inicio de sesión único para esta dirección: inicia sesión con el SSO de tu organización.",
  "sso.failed":
    "El inicio de sesión a través del proveedor de identidad de tu organización no se completó. Inténtalo de nuevo o pide al administrador de tu organización que revise la conexión.",
  "sso.title": "Inicio de sesión único",
  "sso.none": "Esta organización aún no tiene ninguna conexión SSO.",
  "sso.created": "Se añadió la conexión SSO.",
  "sso.invalid": "No se pudo guardar esta conexión: revisa sus campos (un emisor https, un ID y un secreto de cliente) y tu rol.",
  "sso.issuer": "Emisor",
  "sso.idpEntityId": "ID de entidad del proveedor de identidad",
  "sso.redirectUri": "URI de redirección que debes registrar en tu proveedor de identidad",
  "sso.spCertificate": "Certificado del proveedor de servicios",
  "sso.spEntityId": "ID de entidad del proveedor de servicios (y URL de metadatos)",
  "sso.acsUrl": "URL del servicio consumidor de aserciones (ACS)",
  "sso.requiredBadge": "Solo SSO",
  "sso.requiredLabel": "Exigir SSO para las direcciones de los dominios verificados de esta organización",
  "sso.addOidc": "Añadir una conexión OIDC",
  "sso.name": "Nombre",
  "sso.clientId": "ID de cliente",
  "sso.clientSecret": "Secreto de cliente",
};
