/** Spanish texts of the API keys' account section and owner notice (keys and placeholders as in `en.ts`). @module features/api-keys/messages/es */
import type { ApiKeyTexts } from "./keys.js";

export const es: ApiKeyTexts = {
  "apiKeys.title": "Claves de API",
  "apiKeys.none": "No tienes claves de API.",
  "apiKeys.created": "Creada {date}",
  "apiKeys.lastUsed": "último uso {date}",
  "apiKeys.neverUsed": "nunca usada",
  "apiKeys.expires": "caduca {date}",
  "apiKeys.neverExpires": "no caduca",
  "apiKeys.revoke": "Revocar",
  "apiKeys.revoked": "La clave de API se revocó.",
  "apiKeys.create": "Crear una clave",
  "apiKeys.name": "Nombre",
  "apiKeys.scopes": "Permisos",
  "apiKeys.newKey": "Tu nueva clave de API",
  "apiKeys.copyHint": "Cópiala ahora y guárdala en un lugar seguro: solo se muestra una vez.",
  "apiKeys.notFound": "Esta clave de API no existe o ya se revocó.",
  "apiKeys.invalid": "No se puede crear esta clave: revisa el nombre, los permisos y la duración, o revoca antes otra clave.",
  "apiKeys.organizationTitle": "Claves de API de la organización",
  "mail.change.apiKeyCreated":
    "Se creó una clave de API para tu cuenta. Si no fuiste tú, revócala en la página de tu cuenta y cambia tu contraseña.",
  "mail.change.apiKeyRevoked":
    "Se revocó una clave de API de tu cuenta. Si no fuiste tú, revisa la página de tu cuenta y cambia tu contraseña.",
};
