/** French texts of enterprise SSO (keys as in `en.ts`). @module features/sso/messages/fr */
import type { SsoTexts } from "./keys.js";

export const fr: SsoTexts = {
  "sso.continue": "Continuer avec le SSO",
  "sso.emailLabel": "Adresse e-mail professionnelle",
  "sso.emailHint": "Si votre organisation se connecte avec son propre fournisseur d’identité, vous continuerez chez lui.",
  "sso.required":
    "Votre organisation exige son authentification unique pour cette adresse : connectez-vous avec le SSO de votre organisation.",
  "sso.failed":
    "La connexion via le fournisseur d’identité de votre organisation n’a pas abouti. Réessayez, ou demandez à l’administrateur de votre organisation de vérifier la connexion.",
};
