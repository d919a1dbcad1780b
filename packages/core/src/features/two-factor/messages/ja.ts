/** Japanese texts of the second factor's pages, forms and mails (keys and placeholders as in `en.ts`). @module features/two-factor/messages/ja */
import type { TwoFactorTexts } from "./keys.js";

export const ja: TwoFactorTexts = {
  "signinError.twoFactorExpired": "ログインの2段階目に時間がかかりすぎたか、別のブラウザーで開始されました。もう一度ログインしてください。",
  "twoFactor.title": "本人確認",
  "twoFactor.lead": "このアカウントは2段階認証を使っています。2つ目の要素でログインを完了してください。",
  "twoFactor.codeLabel": "認証アプリのコード",
  "twoFactor.codeHint": "6 桁の数字。スマートフォンをなくした場合は、リカバリーコードのいずれかを入力してください。",
  "twoFactor.continue": "続行",
  "twoFactor.usePasskey": "パスキーを使う",
  "twoFactor.cancel": "キャンセルしてログインし直す",
  "twoFactorError.incorrect": "このコードは使えませんでした。認証アプリを確認するか、未使用のリカバリーコードを使ってください。",
  "twoFactorError.rateLimited": "コードの試行回数が多すぎます。数分待ってからもう一度お試しください。",
  "twoFactorError.passkeyFailed": "パスキーを使えませんでした。もう一度試すか、コードを使ってください。",
  "twoFactorError.passkeyExpired": "パスキーの要求の有効期限が切れました。もう一度お試しください。",
  "twoFactorError.default": "うまくいきませんでした。もう一度お試しください。",
  "mail.change.twoFactorEnabled": "認証アプリによる2段階認証がオンになり、新しいリカバリーコードが作成されました。",
  "mail.change.twoFactorDisabled": "2段階認証がオフになりました。アカウントは認証アプリのコードを求めなくなりました。",
  "mail.change.recoveryCodeUsed":
    "リカバリーコードを使ってアカウントにログインしました。各コードは一度だけ使えます。残りの数を確認してください。",
  "mail.change.recoveryCodesCreated": "アカウントの新しいリカバリーコードが作成されました。以前のコードは使えなくなりました。",
  "account.twoFactorSection": "2段階認証",
  "account.twoFactorOff": "オフ：ログインは1段階です。",
  "account.twoFactorOn": "オン：ログイン時に認証アプリのコードを求めます。",
  "account.twoFactorEnable": "認証アプリでオンにする",
  "account.twoFactorScan":
    "認証アプリでこのQRコードを読み取るか、キーを入力してください。次に、アプリに表示される6桁のコードを入力してください。",
  "account.twoFactorQrAlt": "認証アプリで読み取るQRコード",
  "account.twoFactorKey": "キー：",
  "account.twoFactorCode": "認証アプリのコード",
  "account.twoFactorConfirm": "オンにする",
  "account.recoveryCodesLead":
    "リカバリーコード：スマートフォンがないときに、それぞれ1回だけログインに使えます。今すぐ安全な場所に保管してください。表示されるのはこの1回だけです。",
  "account.recoveryCodesLeft": "残りのリカバリーコード：{count}個。",
  "account.newRecoveryCodes": "新しいリカバリーコードを作成",
  "account.twoFactorDisableCode": "アプリのコード、またはリカバリーコード",
  "account.twoFactorDisable": "オフにする",
  "account.done.twoFactorOn": "2段階認証をオンにしました。",
  "account.done.twoFactorOff": "2段階認証をオフにしました。",
  "account.done.recoveryCodesNew": "新しいリカバリーコードを作成しました。以前のコードは使えなくなりました。今すぐ保管してください。",
  "accountError.twoFactorAlreadyOn": "2段階認証はすでにオンです。",
  "accountError.twoFactorNotOn": "2段階認証はオンになっていません。先にオンにしてください。",
  "accountError.incorrectCode":
    "このコードは使えませんでした。アプリに今表示されているコード、または未使用のリカバリーコードを入力してください。",
};
