/** Spanish texts of the second factor's pages, forms and mails (keys and placeholders as in `en.ts`). @module features/two-factor/messages/es */
import type { TwoFactorTexts } from "./keys.js";

export const es: TwoFactorTexts = {
  "signinError.twoFactorExpired":
    "El segundo paso de tu inicio de sesión tardó demasiado o empezó en otro navegador. Vuelve a iniciar sesión.",
  "twoFactor.title": "Confirma que eres tú",
  "twoFactor.lead": "Tu cuenta tiene verificación en dos pasos. Termina de iniciar sesión con tu segundo factor.",
  "twoFactor.codeLabel": "Código de tu aplicación de autenticación",
  "twoFactor.codeHint": "6 dígitos. ¿Perdiste el teléfono? Escribe uno de tus códigos de recuperación.",
  "twoFactor.continue": "Continuar",
  "twoFactor.usePasskey": "Usar una llave de acceso",
  "twoFactor.cancel": "Cancelar y volver a iniciar sesión",
  "twoFactorError.incorrect": "Ese código no funcionó. Revisa tu aplicación de autenticación o usa un código de recuperación sin usar.",
  "twoFactorError.rateLimited": "Demasiados códigos probados. Espera unos minutos y vuelve a intentarlo.",
  "twoFactorError.passkeyFailed": "No se pudo usar la llave de acceso. Vuelve a intentarlo o usa un código.",
  "twoFactorError.passkeyExpired": "La solicitud de la llave de acceso caducó. Vuelve a intentarlo.",
  "twoFactorError.default": "Eso no funcionó. Vuelve a intentarlo.",
  "mail.change.twoFactorEnabled":
    "Se activó la verificación en dos pasos con una app de autenticación y se crearon códigos de recuperación nuevos.",
  "mail.change.twoFactorDisabled": "Se desactivó la verificación en dos pasos: tu cuenta ya no pide un código de tu app de autenticación.",
  "mail.change.recoveryCodeUsed":
    "Se usó un código de recuperación para iniciar sesión en tu cuenta. Cada código funciona una vez: cuenta cuántos te quedan.",
  "mail.change.recoveryCodesCreated": "Se crearon códigos de recuperación nuevos para tu cuenta: los anteriores ya no funcionan.",
  "account.twoFactorSection": "Verificación en dos pasos",
  "account.twoFactorOff": "Desactivada: iniciar sesión lleva un paso.",
  "account.twoFactorOn": "Activada: al iniciar sesión se pide un código de tu app de autenticación.",
  "account.twoFactorEnable": "Activar con una app de autenticación",
  "account.twoFactorScan":
    "Escanea este código QR con tu app de autenticación o escribe la clave en ella. Después escribe el código de 6 dígitos que muestra.",
  "account.twoFactorQrAlt": "Código QR para escanear con tu app de autenticación",
  "account.twoFactorKey": "Clave:",
  "account.twoFactorCode": "Código de tu app de autenticación",
  "account.twoFactorConfirm": "Activar",
  "account.recoveryCodesLead":
    "Tus códigos de recuperación: cada uno inicia sesión una vez cuando no tienes tu teléfono. Guárdalos ahora en un lugar seguro. Solo se muestran esta vez.",
  "account.recoveryCodesLeft": "Quedan {count} códigos de recuperación.",
  "account.newRecoveryCodes": "Crear códigos de recuperación nuevos",
  "account.twoFactorDisableCode": "Código de tu app o un código de recuperación",
  "account.twoFactorDisable": "Desactivar",
  "account.done.twoFactorOn": "La verificación en dos pasos está activada.",
  "account.done.twoFactorOff": "La verificación en dos pasos está desactivada.",
  "account.done.recoveryCodesNew": "Se crearon códigos de recuperación nuevos: los anteriores ya no funcionan. Guarda estos ahora.",
  "accountError.twoFactorAlreadyOn": "La verificación en dos pasos ya está activada.",
  "accountError.twoFactorNotOn": "La verificación en dos pasos no está activada: actívala primero.",
  "accountError.incorrectCode": "Ese código no funcionó. Escribe el código que muestra tu app ahora o un código de recuperación sin usar.",
};
