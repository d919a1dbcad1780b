/** Spanish texts of the authorization server's pages and notices (keys and placeholders as in `en.ts`). @module features/authorization-server/messages/es */
import type { AuthorizationServerTexts } from "./keys.js";

export const es: AuthorizationServerTexts = {
  "oauth.consent.title": "¿Permitir el acceso a tu cuenta?",
  "oauth.consent.lead": "{client} pide usar tu cuenta.",
  "oauth.consent.redirect": "Cuando decidas, volverás a {host}.",
  "oauth.consent.device": "La solicitud viene del dispositivo que muestra el código {code}.",
  "oauth.consent.scopes": "Podrá:",
  "oauth.consent.signedInAs": "Has iniciado sesión como {account}.",
  "oauth.consent.allow": "Permitir",
  "oauth.consent.deny": "Rechazar",
  "oauth.consent.secondFactor":
    "Parte de este acceso requiere iniciar sesión con tu segundo factor. Activa la verificación en dos pasos en tu cuenta si está desactivada y vuelve a iniciar sesión.",
  "oauth.consent.expired": "Esta solicitud ha caducado. Vuelve a empezar desde la aplicación.",
  "oauth.scope.openid": "Saber quién eres",
  "oauth.scope.profile": "Ver tu nombre y tu foto",
  "oauth.scope.email": "Ver tu dirección de correo electrónico",
  "oauth.scope.offline_access": "Conservar este acceso cuando no lo estés usando",
  "oauth.device.title": "Conectar un dispositivo",
  "oauth.device.lead": "Escribe el código que muestra tu dispositivo.",
  "oauth.device.code": "Código",
  "oauth.device.continue": "Continuar",
  "oauth.device.invalid":
    "Este código no es válido, ya se usó o ha caducado. Comprueba el código en tu dispositivo o vuelve a empezar allí.",
  "oauth.device.approved": "Listo. Puedes volver a tu dispositivo.",
  "oauth.device.denied": "El dispositivo no recibió acceso. Puedes cerrar esta página.",
  "oauth.grants.title": "Aplicaciones conectadas",
  "oauth.grants.none": "Ninguna aplicación tiene acceso a tu cuenta.",
  "oauth.grants.since": "Conectada el {date}",
  "oauth.grants.lastUsed": "último uso el {date}",
  "oauth.grants.revoke": "Revocar el acceso",
  "oauth.grants.revoked": "La aplicación ya no tiene acceso a tu cuenta.",
  "oauth.grants.notFound": "Esa aplicación no está conectada a tu cuenta: puede que su acceso ya haya terminado.",
  "mail.change.applicationAuthorized":
    "Una aplicación recibió acceso a tu cuenta. Revisa tus aplicaciones conectadas en la página de tu cuenta.",
  "mail.change.applicationRevoked":
    "Se revocó el acceso de una aplicación a tu cuenta. Si no fuiste tú, revisa la página de tu cuenta y cambia tu contraseña.",
};
