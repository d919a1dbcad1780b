/** Portuguese texts of the API keys' account section and owner notice (keys and placeholders as in `en.ts`). @module features/api-keys/messages/pt */
import type { ApiKeyTexts } from "./keys.js";

export const pt: ApiKeyTexts = {
  "apiKeys.title": "Chaves de API",
  "apiKeys.none": "Você não tem chaves de API.",
  "apiKeys.created": "Criada em {date}",
  "apiKeys.lastUsed": "último uso {date}",
  "apiKeys.neverUsed": "nunca usada",
  "apiKeys.expires": "expira em {date}",
  "apiKeys.neverExpires": "não expira",
  "apiKeys.revoke": "Revogar",
  "apiKeys.revoked": "A chave de API foi revogada.",
  "apiKeys.create": "Criar uma chave",
  "apiKeys.name": "Nome",
  "apiKeys.scopes": "Permissões",
  "apiKeys.newKey": "Sua nova chave de API",
  "apiKeys.copyHint": "Copie-a agora e guarde-a em um lugar seguro: ela é mostrada só uma vez.",
  "apiKeys.notFound": "Esta chave de API não existe ou já foi revogada.",
  "apiKeys.invalid": "Esta chave não pode ser criada: confira o nome, as permissões e a validade, ou revogue uma chave antes.",
  "apiKeys.organizationTitle": "Chaves de API da organização",
  "mail.change.apiKeyCreated":
    "Uma chave de API foi criada para a sua conta. Se não foi você, revogue-a na página da sua conta e altere a sua senha.",
  "mail.change.apiKeyRevoked":
    "Uma chave de API da sua conta foi revogada. Se não foi você, confira a página da sua conta e altere a sua senha.",
};
