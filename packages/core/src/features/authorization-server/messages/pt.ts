/** Portuguese texts of the authorization server's pages and notices (keys and placeholders as in `en.ts`). @module features/authorization-server/messages/pt */
import type { AuthorizationServerTexts } from "./keys.js";

export const pt: AuthorizationServerTexts = {
  "oauth.consent.title": "Permitir o acesso à sua conta?",
  "oauth.consent.lead": "{client} pede para usar a sua conta.",
  "oauth.consent.redirect": "Depois de decidir, você volta para {host}.",
  "oauth.consent.device": "O pedido vem do dispositivo que mostra o código {code}.",
  "oauth.consent.scopes": "O aplicativo poderá:",
  "oauth.consent.signedInAs": "Você entrou como {account}.",
  "oauth.consent.allow": "Permitir",
  "oauth.consent.deny": "Recusar",
  "oauth.consent.secondFactor":
    "Parte deste acesso exige entrar com o seu segundo fator. Ative a verificação em duas etapas na sua conta, se estiver desativada, e depois entre de novo.",
  "oauth.consent.expired": "Este pedido expirou. Comece de novo a partir do aplicativo.",
  "oauth.scope.openid": "Saber quem você é",
  "oauth.scope.profile": "Ver o seu nome e a sua foto",
  "oauth.scope.email": "Ver o seu endereço de e-mail",
  "oauth.scope.offline_access": "Manter este acesso quando você não estiver usando",
  "oauth.device.title": "Conectar um dispositivo",
  "oauth.device.lead": "Digite o código que o seu dispositivo mostra.",
  "oauth.device.code": "Código",
  "oauth.device.continue": "Continuar",
  "oauth.device.invalid":
    "Este código não é válido, já foi usado ou expirou. Confira o código no seu dispositivo ou comece de novo por lá.",
  "oauth.device.approved": "Pronto. Você pode voltar ao seu dispositivo.",
  "oauth.device.denied": "O dispositivo não recebeu acesso. Você pode fechar esta página.",
  "oauth.grants.title": "Aplicativos conectados",
  "oauth.grants.none": "Nenhum aplicativo tem acesso à sua conta.",
  "oauth.grants.since": "Conectado em {date}",
  "oauth.grants.lastUsed": "último uso em {date}",
  "oauth.grants.revoke": "Revogar o acesso",
  "oauth.grants.revoked": "O aplicativo não tem mais acesso à sua conta.",
  "oauth.grants.notFound": "Esse aplicativo não está conectado à sua conta: o acesso dele pode já ter terminado.",
  "mail.change.applicationAuthorized":
    "Um aplicativo recebeu acesso à sua conta. Confira os seus aplicativos conectados na página da sua conta.",
  "mail.change.applicationRevoked":
    "O acesso de um aplicativo à sua conta foi revogado. Se não foi você, confira a página da sua conta e altere a sua senha.",
};
