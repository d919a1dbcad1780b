/**
 * Enterprise SSO's texts, carried by the feature (`FeatureDefinition.messages`): one module per language,
 * loaded with the first request that asks for it.
 *
 * @module features/sso/messages
 */
import type { FeatureMessages } from "../../types/i18n.js";
import type { SsoMessages } from "./types.js";

export const ssoMessages: FeatureMessages<keyof SsoMessages> = {
  en: () => import("./messages/en.js").then((m) => m.en),
  de: () => import("./messages/de.js").then((m) => m.de),
  fr: () => import("./messages/fr.js").then((m) => m.fr),
  es: () => import("./messages/es.js").then((m) => m.es),
  pt: () => import("./messages/pt.js").then((m) => m.pt),
  ja: () => import("./messages/ja.js").then((m) => m.ja),
  zh: () => import("./messages/zh.js").then((m) => m.zh),
};
