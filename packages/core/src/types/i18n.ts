/**
 * The types of the message catalogs (types only: no runtime code).
 *
 * @module i18n/types
 */
/**
 * A complete catalog: every text of the built-in pages and mails in one language, by key. `{name}` marks
 * a value filled in. The English texts (`catalogs/en.ts`) say what each one is. A page's new text is a new
 * key here; the compiler then asks every catalog for it.
 */
export interface Messages extends FeatureMessageTexts {
  "signin.title": string;
  "signin.withProvider": string;
  "signin.registerPasskeyForm": string;
  "signin.registerPasskey": string;
  "signin.passkeysNeedScript": string;
  "signin.email": string;
  "signin.emailPlaceholder": string;
  "signin.displayName": string;
  "signin.forgotPassword": string;
  "signin.createAccount": string;
  "signin.noMethods": string;
  "signin.or": string;
  "signin.errorCode": string;
  "passkey.cancelled": string;
  "passkey.registered": string;
  "passkey.unsupported": string;
  "passkey.failed": string;
  "passkey.name": string;
  "passkey.long": string;
  "passkey.line": string;
  "passkey.address": string;
  "signinError.default": string;
  "signinError.tryAnotherAccount": string;
  "signinError.useOriginalAccount": string;
  "signinError.emailNotSent": string;
  "signinError.accessDeniedAtProvider": string;
  "signinError.invalidAddress": string;
  "signinError.credentials": string;
  "signinError.sessionRequired": string;
  "signinError.missingCsrf": string;
  "signinError.accessDenied": string;
  "signinError.verification": string;
  "signinError.rateLimited": string;
  "signinError.recentSignInRequired": string;
  "signout.title": string;
  "signout.heading": string;
  "signout.question": string;
  "signout.button": string;
  /** The banner of every built-in page while an admin acts as the user (`impersonateUser`): its landmark's name. */
  "impersonation.label": string;
  /** The banner's text: `{user}` the user acted as, `{admin}` the admin. */
  "impersonation.banner": string;
  /** The banner's button that ends the impersonation (`stopImpersonating`). */
  "impersonation.stop": string;
  /** The refusal an impersonated session gets for an owner-present operation (`ImpersonationForbidden`), on the account and error pages. */
  "impersonation.forbidden": string;
  "error.configuration.heading": string;
  "error.configuration.problem": string;
  "error.configuration.logs": string;
  "error.accessDenied.heading": string;
  "error.accessDenied.text": string;
  "error.verification.heading": string;
  "error.verification.invalid": string;
  "error.verification.reason": string;
  "error.default.heading": string;
  "error.default.text": string;
  "error.devCause": string;
  "error.devCauseLink": string;
  "error.signIn": string;
  "error.home": string;
  "verify.checkEmail": string;
  "verify.signInLink": string;
  "verify.signInLinkAndCode": string;
  "verify.passwordSignUp": string;
  "verify.passwordReset": string;
  "verify.passwordVerifiedHeading": string;
  "verify.passwordVerified": string;
  "verify.linkLeadsTo": string;
  "verify.backTo": string;
  "verify.codeLabel": string;
  "verify.codeHint": string;
  "verify.signIn": string;
  "codeError.incorrect": string;
  "codeError.rateLimited": string;
  "codeError.default": string;
  "emailConfirm.title": string;
  "emailConfirm.question": string;
  "emailConfirm.button": string;
  "emailConfirm.notYou": string;
  "password.signUpTitle": string;
  "password.forgotTitle": string;
  "password.resetTitle": string;
  "password.verifyTitle": string;
  "password.name": string;
  "password.email": string;
  "password.password": string;
  "password.hint": string;
  "password.createButton": string;
  "password.forgotLead": string;
  "password.forgotButton": string;
  "password.resetButton": string;
  "password.verifyLead": string;
  "password.verifyButton": string;
  "password.resendTitle": string;
  "password.resendLead": string;
  "password.resendHere": string;
  "password.resendButton": string;
  "password.haveAccount": string;
  "password.backToSignIn": string;
  "passwordError.tooShort": string;
  "passwordError.tooLong": string;
  "passwordError.missing": string;
  "passwordError.invalidName": string;
  "passwordError.default": string;
  "formError.emailNotSent": string;
  "formError.expired": string;
  "formError.rateLimited": string;
  "formError.linkInvalid": string;
  "account.title": string;
  "account.noEmail": string;
  "account.passwordSection": string;
  "account.noPassword": string;
  "account.setPassword": string;
  "account.changePasswordSection": string;
  "account.currentPassword": string;
  "account.newPassword": string;
  "account.newPasswordHint": string;
  "account.changePasswordButton": string;
  "account.methodsSection": string;
  "account.noAccounts": string;
  "account.unlinkLabel": string;
  "account.unlink": string;
  "account.link": string;
  "account.changeEmailSection": string;
  "account.addEmailSection": string;
  "account.newEmail": string;
  "account.newEmailHint": string;
  "account.sendLink": string;
  "account.deleteSection": string;
  "account.deletePassword": string;
  "account.deleteNeedsRecentSignIn": string;
  "account.deleteButton": string;
  "account.passkeysSection": string;
  "account.onePasskey": string;
  "account.passkeys": string;
  "account.noPasskeys": string;
  "account.passkeyAdded": string;
  "account.passkeyLastUsed": string;
  "account.passkeyNeverUsed": string;
  "account.passkeyNewName": string;
  "account.renamePasskey": string;
  "account.removePasskey": string;
  "account.removePasskeyLabel": string;
  "account.addPasskey": string;
  "account.signOut": string;
  "account.done.passwordChanged": string;
  "account.done.unlinked": string;
  "account.done.linked": string;
  "account.done.emailSent": string;
  "account.done.emailChanged": string;
  "account.done.passkeyAdded": string;
  "account.done.passkeyRenamed": string;
  "account.done.passkeyRemoved": string;
  "accountError.lastSignInMethod": string;
  "accountError.accountNotFound": string;
  "accountError.passkeyNotFound": string;
  "accountError.invalidName": string;
  "accountError.incorrectPassword": string;
  "accountError.invalidPassword": string;
  "accountError.passwordNotSet": string;
  "accountError.recentSignInRequired": string;
  "accountError.default": string;
  "confirmEmail.title": string;
  "confirmEmail.button": string;
  "mail.signIn.subject": string;
  "mail.signIn.heading": string;
  "mail.signIn.button": string;
  "mail.signIn.codeNote": string;
  "mail.signIn.ignoreLink": string;
  "mail.signIn.ignoreLinkAndCode": string;
  "mail.newAddress.subject": string;
  "mail.newAddress.heading": string;
  "mail.newAddress.button": string;
  "mail.newAddress.note": string;
  "mail.addressTaken.subject": string;
  "mail.addressTaken.heading": string;
  "mail.addressTaken.note": string;
  "mail.addressTaken.ifYou": string;
  "mail.addressChanged.subject": string;
  "mail.addressChanged.heading": string;
  "mail.addressChanged.note": string;
  "mail.signUp.subject": string;
  "mail.signUp.heading": string;
  "mail.signUp.button": string;
  "mail.signUp.note": string;
  "mail.accountExists.subject": string;
  "mail.accountExists.heading": string;
  "mail.accountExists.button": string;
  "mail.accountExists.note": string;
  "mail.accountExists.notYou": string;
  "mail.reset.subject": string;
  "mail.reset.heading": string;
  "mail.reset.button": string;
  "mail.reset.validity": string;
  "mail.reset.notYou": string;
  "mail.noAccount.subject": string;
  "mail.recovery.subject": string;
  "mail.recovery.heading": string;
  "mail.recovery.button": string;
  "mail.recovery.note": string;
  "mail.recovery.notYou": string;
  "mail.noAccount.heading": string;
  "mail.noAccount.button": string;
  "mail.noAccount.note": string;
  "mail.passwordChanged.subject": string;
  "mail.passwordChanged.heading": string;
  "mail.passwordChanged.button": string;
  "mail.passwordChanged.note": string;
  "verify.addressHasAccountHeading": string;
  "verify.addressHasAccount": string;
  "verify.emailRevertedHeading": string;
  "verify.emailReverted": string;
  "revertEmail.title": string;
  "revertEmail.lead": string;
  "revertEmail.button": string;
  "error.linkUsed.heading": string;
  "error.linkUsed.text": string;
  "mail.addressChanged.button": string;
  "mail.addressChanged.undo": string;
  "mail.change.subject": string;
  "mail.change.heading": string;
  "mail.change.button": string;
  "mail.change.notYou": string;
  "mail.change.passkeyAdded": string;
  "mail.change.passkeyRemoved": string;
  "mail.change.passwordSet": string;
  "mail.change.accountLinked": string;
  "mail.change.accountUnlinked": string;
  "mail.change.otherSessionsEnded": string;
  "provider.email": string;
  "provider.password": string;
  "provider.emailPassword": string;
  "provider.passkey": string;
  "signin.failedWith": string;
  "password.verifyLeadAddress": string;
  "account.deleteWarning": string;
  "account.deletedTitle": string;
  "account.deletedText": string;
  "account.done.unlinkedPassword": string;
  "account.done.unlinkedPasskey": string;
  "account.done.unlinkedEmail": string;
  "accountError.incorrectCodeSetup": string;
  "organization.mail.subject": string;
  "organization.mail.heading": string;
  "organization.mail.button": string;
  "organization.mail.note": string;
  "organization.role.owner": string;
  "organization.role.admin": string;
  "organization.role.member": string;
  "organization.invitation.title": string;
  "organization.invitation.lead": string;
  "organization.invitation.accept": string;
  "organization.invitation.signedOutLead": string;
  "organization.invitation.signIn": string;
  "organization.invitation.signUp": string;
  "organization.invitation.wrongAccount": string;
  "organization.invitation.signOut": string;
  "organization.invitation.invalidTitle": string;
  "organization.invitation.invalid": string;
  "organization.page.title": string;
  "organization.page.yourRole": string;
  "organization.page.notFound": string;
  "organization.page.policy": string;
  "organization.page.stepUp": string;
  "organization.page.account": string;
  "organization.switcher.heading": string;
  "organization.switcher.none": string;
  "organization.switcher.active": string;
  "organization.switcher.open": string;
  "organization.switcher.switch": string;
  "organization.create.heading": string;
  "organization.create.name": string;
  "organization.create.slug": string;
  "organization.create.slugHint": string;
  "organization.create.submit": string;
  "organization.members.heading": string;
  "organization.members.you": string;
  "organization.members.roleOf": string;
  "organization.members.changeRole": string;
  "organization.members.remove": string;
  "organization.invitations.heading": string;
  "organization.invitations.email": string;
  "organization.invitations.role": string;
  "organization.invitations.submit": string;
  "organization.invitations.none": string;
  "organization.invitations.waiting": string;
  "organization.invitations.revoke": string;
  "organization.domains.heading": string;
  "organization.domains.lead": string;
  "organization.domains.none": string;
  "organization.domains.name": string;
  "organization.domains.add": string;
  "organization.domains.record": string;
  "organization.domains.verified": string;
  "organization.domains.unverified": string;
  "organization.domains.verify": string;
  "organization.domains.remove": string;
  "organization.policy.heading": string;
  "organization.policy.secondFactor": string;
  "organization.policy.methods": string;
  "organization.policy.method.password": string;
  "organization.policy.method.passkey": string;
  "organization.policy.method.email": string;
  "organization.policy.method.oauth": string;
  "organization.policy.method.sso": string;
  "organization.policy.maxAge": string;
  "organization.policy.save": string;
  "organization.leave.submit": string;
  "organization.done.created": string;
  "organization.done.invited": string;
  "organization.done.revoked": string;
  "organization.done.roleChanged": string;
  "organization.done.removed": string;
  "organization.done.left": string;
  "organization.done.active": string;
  "organization.done.domainAdded": string;
  "organization.done.domainVerified": string;
  "organization.done.domainRemoved": string;
  "organization.done.policySaved": string;
  "organization.done.joined": string;
  "organization.error.default": string;
  "organization.error.invalid": string;
  "organization.error.slugTaken": string;
  "organization.error.lastOwner": string;
  "organization.error.forbidden": string;
  "organization.error.notFound": string;
  "organization.error.domainClaimed": string;
  "organization.error.domainNotProven": string;
  "organization.error.limit": string;
  "organization.error.expired": string;
  "organization.error.mail": string;
}

/** The key of one text of the built-in pages and mails (`"signin.title"`, `"mail.signIn.subject"`, …). */
export type MessageKey = keyof Messages;

/**
 * The texts a built-in feature carries in its own folder (`features/<name>/messages/`) rather than the
 * shipped catalogs (`i18n/catalogs/`), by key: each feature adds its keys here (declaration merging, in its
 * `types.ts`), and so to {@link Messages}.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the features' keys are merged into it
export interface FeatureMessageTexts {}

/**
 * The keys of the features' own texts ({@link FeatureMessageTexts}). Each side is checked complete for its
 * keys by the compiler ({@link CoreMessages}, {@link FeatureMessages}).
 */
export type FeatureMessageKey = keyof FeatureMessageTexts;

/** The keys whose texts the organizations feature carries (`features/organizations/messages/`). */
export type OrganizationMessageKey = Extract<MessageKey, `organization.${string}`>;

/** The texts of a shipped catalog (`i18n/catalogs/<language>.ts`): every key but the features' own. */
export type CoreMessages = Omit<Messages, FeatureMessageKey | OrganizationMessageKey>;

/** The languages authlib ships (`i18n/locale.ts` `SHIPPED_LOCALES`): a feature's texts come in each of them. */
export type ShippedLanguage = "en" | "de" | "fr" | "es" | "pt" | "ja" | "zh";

/**
 * A feature's own texts (`FeatureDefinition.messages`): its keys in each shipped language, English
 * included, each loaded with the first request that needs it (never with the feature's definition). Merged
 * into the instance's catalog under the app's `messages`, as the shipped catalog's texts are.
 */
export type FeatureMessages<K extends MessageKey = MessageKey> = {
  readonly [L in ShippedLanguage]: () => Promise<Readonly<Pick<Messages, K>>>;
};

/** A feature's texts as the instance holds them, whatever its keys: a loader per language. */
export type FeatureTexts = Readonly<Partial<Record<string, () => Promise<Readonly<Partial<Messages>>>>>>;

/**
 * The texts one language adds or overrides (config `messages`): any subset of the keys. A key that is not
 * one of ours is a type error; a key left out falls back to the shipped catalog of the language (or its
 * base language), then to English.
 */
export type MessageOverrides = Partial<Messages>;

/** The texts of the language a request gets, with what `<html lang dir>` needs. */
export interface Translator {
  /** The chosen language tag (`"de"`, `"pt-BR"`, `"ar"`). A key of the catalogs, never raw header text. */
  readonly locale: string;
  /** `"rtl"` for Arabic, Hebrew, Persian and Urdu (and their regional tags), else `"ltr"`. */
  readonly dir: "ltr" | "rtl";
  /** The text of `key` with each `{name}` replaced by `values[name]` (a name without a value stays as written). */
  t(key: MessageKey, values?: Readonly<Record<string, string | number>>): string;
}
