/** Portuguese texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/pt */
import type { SsoTexts } from "./keys.js";

export const pt: SsoTexts = {
  "sso.continue": "Continuar com SSO",
  "sso.emailLabel": "E-mail de trabalho",
  "sso.emailHint": "Se a sua organização entra com o próprio provedor de identidade, você continuará lá.",
  "sso.required": "A sua organização exige o login único dela para este endereço: entre com o SSO da sua organização.",
  "sso.failed":
    "O login pelo provedor de identidade da sua organização não foi concluído. Tente novamente ou peça ao administrador da sua organização que verifique a conexão.",
  "sso.title": "Login único",
  "sso.none": "Esta organização ainda não tem nenhuma conexão SSO.",
  "sso.created": "A conexão SSO foi adicionada.",
  "sso.invalid":
    "Não foi possível salvar esta conexão: verifique os campos (um emissor https, um ID e um segredo de cliente) e a sua função.",
  "sso.issuer": "Emissor",
  "sso.idpEntityId": "ID de entidade do provedor de identidade",
  "sso.redirectUri": "URI de redirecionamento a registrar no seu provedor de identidade",
  "sso.spCertificate": "Certificado do provedor de serviços",
  "sso.spEntityId": "ID de entidade do provedor de serviços (e URL dos metadados)",
  "sso.acsUrl": "URL do serviço consumidor de asserções (ACS)",
  "sso.requiredBadge": "Somente SSO",
  "sso.requiredLabel": "Exigir SSO para endereços dos domínios verificados desta organização",
  "sso.addOidc": "Adicionar uma conexão OIDC",
  "sso.name": "Nome",
  "sso.clientId": "ID do cliente",
  "sso.clientSecret": "Segredo do cliente",
};
