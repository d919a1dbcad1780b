/** French texts of the API keys' account section and owner notice (keys and placeholders as in `en.ts`). @module features/api-keys/messages/fr */
import type { ApiKeyTexts } from "./keys.js";

export const fr: ApiKeyTexts = {
  "apiKeys.title": "Clés d’API",
  "apiKeys.none": "Vous n’avez aucune clé d’API.",
  "apiKeys.created": "Créée le {date}",
  "apiKeys.lastUsed": "dernière utilisation {date}",
  "apiKeys.neverUsed": "jamais utilisée",
  "apiKeys.expires": "expire le {date}",
  "apiKeys.neverExpires": "n’expire jamais",
  "apiKeys.revoke": "Révoquer",
  "apiKeys.revoked": "La clé d’API a été révoquée.",
  "apiKeys.create": "Créer une clé",
  "apiKeys.name": "Nom",
  "apiKeys.scopes": "Autorisations",
  "apiKeys.newKey": "Votre nouvelle clé d’API",
  "apiKeys.copyHint": "Copiez-la maintenant et gardez-la en lieu sûr : elle n’est affichée qu’une fois.",
  "apiKeys.notFound": "Cette clé d’API n’existe pas ou a déjà été révoquée.",
  "apiKeys.invalid": "Cette clé ne peut pas être créée : vérifiez son nom, ses autorisations et sa durée, ou révoquez d’abord une clé.",
  "apiKeys.organizationTitle": "Clés d’API de l’organisation",
  "mail.change.apiKeyCreated":
    "Une clé d’API a été créée pour votre compte. Si ce n’était pas vous, révoquez-la sur la page de votre compte et changez votre mot de passe.",
  "mail.change.apiKeyRevoked":
    "Une clé d’API de votre compte a été révoquée. Si ce n’était pas vous, vérifiez la page de votre compte et changez votre mot de passe.",
};
