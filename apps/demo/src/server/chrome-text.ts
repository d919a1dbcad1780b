/**
 * The demo's shared chrome (the header's links and buttons) in the language authlib's built-in pages use
 * for the same request: the demo sets no `locale`, so authlib follows the browser's Accept-Language among
 * its shipped languages, and so does this. Between a German sign-in page and a German account page, the
 * header is German too. The demo's page bodies stay English: they explain the library to developers.
 */

/** The header's words. */
export interface ChromeText {
  lang: string;
  home: string;
  protected: string;
  profile: string;
  account: string;
  devices: string;
  organizations: string;
  admin: string;
  audit: string;
  mailbox: string;
  signIn: string;
  builtInSignIn: string;
  signOut: string;
}

const TEXTS: Readonly<Record<string, ChromeText>> = {
  en: {
    lang: "en",
    home: "Home",
    protected: "Protected",
    profile: "Profile",
    account: "Account",
    devices: "Devices",
    organizations: "Organizations",
    admin: "Admin",
    audit: "Audit",
    mailbox: "Mailbox",
    signIn: "Sign in",
    builtInSignIn: "Built-in sign-in page",
    signOut: "Sign out",
  },
  de: {
    lang: "de",
    home: "Startseite",
    protected: "Geschützt",
    profile: "Profil",
    account: "Konto",
    devices: "Geräte",
    organizations: "Organisationen",
    admin: "Verwaltung",
    audit: "Protokoll",
    mailbox: "Postfach",
    signIn: "Anmelden",
    builtInSignIn: "Eingebaute Anmeldeseite",
    signOut: "Abmelden",
  },
  fr: {
    lang: "fr",
    home: "Accueil",
    protected: "Protégé",
    profile: "Profil",
    account: "Compte",
    devices: "Appareils",
    organizations: "Organisations",
    admin: "Administration",
    audit: "Journal",
    mailbox: "Boîte mail",
    signIn: "Se connecter",
    builtInSignIn: "Page de connexion intégrée",
    signOut: "Se déconnecter",
  },
  es: {
    lang: "es",
    home: "Inicio",
    protected: "Protegido",
    profile: "Perfil",
    account: "Cuenta",
    devices: "Dispositivos",
    organizations: "Organizaciones",
    admin: "Administración",
    audit: "Registro",
    mailbox: "Buzón",
    signIn: "Iniciar sesión",
    builtInSignIn: "Página de inicio de sesión integrada",
    signOut: "Cerrar sesión",
  },
  pt: {
    lang: "pt",
    home: "Início",
    protected: "Protegido",
    profile: "Perfil",
    account: "Conta",
    devices: "Dispositivos",
    organizations: "Organizações",
    admin: "Administração",
    audit: "Registro",
    mailbox: "Caixa de e-mail",
    signIn: "Entrar",
    builtInSignIn: "Página de login integrada",
    signOut: "Sair",
  },
  ja: {
    lang: "ja",
    home: "ホーム",
    protected: "保護されたページ",
    profile: "プロフィール",
    account: "アカウント",
    devices: "デバイス",
    organizations: "組織",
    admin: "管理",
    audit: "監査ログ",
    mailbox: "メールボックス",
    signIn: "ログイン",
    builtInSignIn: "組み込みのログインページ",
    signOut: "ログアウト",
  },
  zh: {
    lang: "zh",
    home: "首页",
    protected: "受保护页面",
    profile: "个人资料",
    account: "账号",
    devices: "设备",
    organizations: "组织",
    admin: "管理",
    audit: "审计日志",
    mailbox: "邮箱",
    signIn: "登录",
    builtInSignIn: "内置登录页面",
    signOut: "退出登录",
  },
};

/** The languages of an Accept-Language header, most wanted first (q=0 left out). */
function wanted(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.tag !== "" && entry.q > 0 && Number.isFinite(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The header's words for a request's Accept-Language: its first shipped language (by base language), else English. */
export function chromeTextFor(acceptLanguage: string | null): ChromeText {
  for (const tag of wanted(acceptLanguage)) {
    const base = tag.split("-")[0] ?? "";
    const text = TEXTS[tag] ?? TEXTS[base];
    if (text) return text;
  }
  return TEXTS.en as ChromeText;
}
