/**
 * The second factor's texts, carried by the feature (`FeatureDefinition.messages`): one module per
 * language, loaded with the first request that asks for it (a bundler splits each into its own chunk).
 *
 * @module features/two-factor/messages
 */
import type { FeatureMessageKey, FeatureMessages } from "../../types/i18n.js";

export const twoFactorMessages: FeatureMessages<FeatureMessageKey> = {
  en: () => import("./messages/en.js").then((m) => m.en),
  de: () => import("./messages/de.js").then((m) => m.de),
  fr: () => import("./messages/fr.js").then((m) => m.fr),
  es: () => import("./messages/es.js").then((m) => m.es),
  pt: () => import("./messages/pt.js").then((m) => m.pt),
  ja: () => import("./messages/ja.js").then((m) => m.ja),
  zh: () => import("./messages/zh.js").then((m) => m.zh),
};
