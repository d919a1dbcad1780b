/** Portuguese texts of the second factor's pages, forms and mails (keys and placeholders as in `en.ts`). @module features/two-factor/messages/pt */
import type { TwoFactorTexts } from "./keys.js";

export const pt: TwoFactorTexts = {
  "signinError.twoFactorExpired": "A segunda etapa do seu login demorou demais ou começou em outro navegador. Entre novamente.",
  "twoFactor.title": "Confirme que é você",
  "twoFactor.lead": "Sua conta tem verificação em duas etapas. Conclua o login com seu segundo fator.",
  "twoFactor.codeLabel": "Código do seu aplicativo autenticador",
  "twoFactor.codeHint": "6 dígitos. Perdeu o celular? Digite um dos seus códigos de recuperação.",
  "twoFactor.continue": "Continuar",
  "twoFactor.usePasskey": "Usar uma chave de acesso",
  "twoFactor.cancel": "Cancelar e entrar novamente",
  "twoFactorError.incorrect": "Esse código não funcionou. Verifique seu aplicativo autenticador ou use um código de recuperação não usado.",
  "twoFactorError.rateLimited": "Códigos demais tentados. Aguarde alguns minutos e tente de novo.",
  "twoFactorError.passkeyFailed": "Não foi possível usar a chave de acesso. Tente de novo ou use um código.",
  "twoFactorError.passkeyExpired": "O pedido da chave de acesso expirou. Tente de novo.",
  "twoFactorError.default": "Isso não funcionou. Tente de novo.",
  "mail.change.twoFactorEnabled":
    "A verificação em duas etapas foi ativada com um app autenticador, e novos códigos de recuperação foram criados.",
  "mail.change.twoFactorDisabled":
    "A verificação em duas etapas foi desativada: sua conta não pede mais um código do seu app autenticador.",
  "mail.change.recoveryCodeUsed":
    "Um código de recuperação foi usado para entrar na sua conta. Cada código funciona uma vez: confira quantos restam.",
  "mail.change.recoveryCodesCreated": "Novos códigos de recuperação foram criados para sua conta: os anteriores não funcionam mais.",
  "account.twoFactorSection": "Verificação em duas etapas",
  "account.twoFactorOff": "Desativada: entrar leva uma etapa.",
  "account.twoFactorOn": "Ativada: ao entrar, é pedido um código do seu app autenticador.",
  "account.twoFactorEnable": "Ativar com um app autenticador",
  "account.twoFactorScan":
    "Escaneie este QR code com seu app autenticador ou digite a chave nele. Depois digite o código de 6 dígitos que o app mostra.",
  "account.twoFactorQrAlt": "QR code para escanear com seu app autenticador",
  "account.twoFactorKey": "Chave:",
  "account.twoFactorCode": "Código do seu app autenticador",
  "account.twoFactorConfirm": "Ativar",
  "account.recoveryCodesLead":
    "Seus códigos de recuperação: cada um entra uma vez quando você não está com o celular. Guarde-os agora em um lugar seguro. Eles são mostrados só desta vez.",
  "account.recoveryCodesLeft": "Restam {count} códigos de recuperação.",
  "account.newRecoveryCodes": "Criar novos códigos de recuperação",
  "account.twoFactorDisableCode": "Código do seu app ou um código de recuperação",
  "account.twoFactorDisable": "Desativar",
  "account.done.twoFactorOn": "A verificação em duas etapas está ativada.",
  "account.done.twoFactorOff": "A verificação em duas etapas está desativada.",
  "account.done.recoveryCodesNew": "Novos códigos de recuperação foram criados: os anteriores não funcionam mais. Guarde estes agora.",
  "accountError.twoFactorAlreadyOn": "A verificação em duas etapas já está ativada.",
  "accountError.twoFactorNotOn": "A verificação em duas etapas não está ativada: ative-a primeiro.",
  "accountError.incorrectCode":
    "Esse código não funcionou. Digite o código que seu app mostra agora ou um código de recuperação não usado.",
};
