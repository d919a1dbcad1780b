/**
 * The browser side of the built-in passkey section: a small script that runs after the
 * `@simplewebauthn/browser` UMD bundle (served together, see `webauthn/script-asset`).
 *
 * It wires every `[data-authlib-webauthn]` element of the page: its `data-*` attributes give the URLs
 * (`data-options-url`, `data-callback-url`, `data-csrf-url`), the page's CSRF token as a fallback
 * (`data-csrf-token`), where to go afterwards (`data-redirect-to`) and whether to arm conditional UI
 * (`data-conditional-ui="true"`). A `[data-webauthn-signin]` button signs in, a
 * `[data-webauthn-second-factor]` button completes a sign-in's second step (`action: "second-factor"`), a
 * `form[data-webauthn-register]` (with a `name` field: the display name of a new user, never an email)
 * registers, a `[data-webauthn-add]` button adds a passkey to the signed-in user (the account page; when
 * the options answer `RecentSignInRequired` the browser goes to `data-reauth-url`, to sign in again and
 * come back), and `[data-webauthn-status]` shows what went wrong in the browser. The script checks the
 * display name as the server does (webauthn/display-name.ts), so a person sees what to fix at once. Server-side failures come back as `{url}` (the request carries
 * `X-Auth-Return-Redirect`) and are followed like a successful sign-in.
 *
 * @module webauthn/client-script
 */
import { MAX_DISPLAY_NAME_LENGTH } from "./display-name.js";

/** The client script (plain ES2018, no dependencies besides `window.SimpleWebAuthnBrowser`). */
export const WEBAUTHN_CLIENT_SCRIPT = `
(function () {
  "use strict";
  var lib = window.SimpleWebAuthnBrowser;
  var MESSAGES = {
    cancelled: "The passkey request was cancelled or timed out.",
    registered: "This passkey is registered already. Sign in with it instead.",
    unsupported: "This browser does not support passkeys.",
    failed: "Something went wrong. Please try again.",
    name: "Enter a display name to register a passkey.",
    long: "A display name has at most ${MAX_DISPLAY_NAME_LENGTH} characters.",
    line: "A display name is one line of text.",
    address: "Enter a name, not an email address: a passkey attaches no address."
  };
  // Each options request sets the challenge cookie: one at a time, so the last answer is the last request.
  var optionsQueue = Promise.resolve();

  function follow(url) {
    var target = new URL(url, window.location.href);
    if (target.protocol !== "https:" && target.protocol !== "http:") throw new Error("Refusing to follow " + target.protocol);
    window.location.assign(target.href);
    return "redirected";
  }

  async function requestJson(url, init) {
    var headers = Object.assign({ Accept: "application/json", "X-Auth-Return-Redirect": "1" }, (init && init.headers) || {});
    var response = await fetch(url, Object.assign({}, init, { headers: headers, credentials: "same-origin", cache: "no-store" }));
    var body = await response.json().catch(function () { return null; });
    if (body && typeof body.url === "string") return { redirect: body.url };
    if (!response.ok || !body) {
      var failure = new Error("Request failed with status " + response.status);
      failure.type = body && typeof body.error === "string" ? body.error : "";
      throw failure;
    }
    return { body: body };
  }

  // The server's rules (webauthn/display-name.ts); the server checks again.
  function nameProblem(name) {
    if (!name) return "name";
    if (Array.from(name).length > ${MAX_DISPLAY_NAME_LENGTH}) return "long";
    if (/[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]/.test(name)) return "line";
    if (name.normalize("NFKC").indexOf("@") !== -1) return "address";
    return "";
  }

  function fetchOptions(data, action, name) {
    var query = new URLSearchParams({ action: action });
    if (name) query.set("name", name);
    var next = optionsQueue.then(function () { return requestJson(data.optionsUrl + "?" + query.toString()); });
    optionsQueue = next.catch(function () {});
    return next;
  }

  async function csrfToken(data) {
    try {
      var answer = await requestJson(data.csrfUrl);
      if (answer.body && typeof answer.body.csrfToken === "string") return answer.body.csrfToken;
    } catch (error) {
      // CSRF handled outside authlib (404), or offline: the page's own token is the best guess.
    }
    return data.csrfToken || "";
  }

  async function ceremony(section, action, name, autofill) {
    var data = section.dataset;
    var options = await fetchOptions(data, action, name);
    if (options.redirect) return follow(options.redirect);
    var credential = action === "register"
      ? await lib.startRegistration({ optionsJSON: options.body.options })
      : await lib.startAuthentication({ optionsJSON: options.body.options, useBrowserAutofill: autofill });
    var result = await requestJson(data.callbackUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ action: action, data: JSON.stringify(credential), csrfToken: await csrfToken(data), callbackUrl: data.redirectTo })
    });
    if (result.redirect) return follow(result.redirect);
    throw new Error("The server did not say where to go.");
  }

  function describe(error) {
    if (error && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "registered";
    if (error && (error.name === "NotAllowedError" || error.name === "AbortError")) return "cancelled";
    return "failed";
  }

  function init(section) {
    var status = section.querySelector("[data-webauthn-status]");
    var signIn = section.querySelector("[data-webauthn-signin]");
    var secondFactor = section.querySelector("[data-webauthn-second-factor]");
    var register = section.querySelector("form[data-webauthn-register]");
    var add = section.querySelector("[data-webauthn-add]");
    var buttons = section.querySelectorAll("button");
    // The page writes each message in its language (data-msg-<key>); English is the fallback.
    function say(key) { if (status) status.textContent = key ? section.getAttribute("data-msg-" + key) || MESSAGES[key] : ""; }
    function busy(on) { buttons.forEach(function (button) { button.disabled = on; }); }
    function run(action, name) {
      say("");
      busy(true);
      section.setAttribute("aria-busy", "true");
      ceremony(section, action, name, false)
        .then(function (outcome) { if (outcome !== "redirected") busy(false); })
        .catch(function (error) {
          // Adding a passkey needs a recent sign-in: sign in again, then back to this page.
          if (error && error.type === "RecentSignInRequired" && section.dataset.reauthUrl) return follow(section.dataset.reauthUrl);
          busy(false);
          say(describe(error));
        })
        .finally(function () { section.removeAttribute("aria-busy"); });
    }

    if (!lib || !lib.browserSupportsWebAuthn()) {
      busy(true);
      say("unsupported");
      return;
    }
    if (signIn) signIn.addEventListener("click", function () { run("authenticate", ""); });
    if (secondFactor) secondFactor.addEventListener("click", function () { run("second-factor", ""); });
    // A signed-in user adding a passkey: the server names it, no display name is asked.
    if (add) add.addEventListener("click", function () { run("register", ""); });
    if (register) {
      register.addEventListener("submit", function (event) {
        event.preventDefault();
        var field = register.elements.namedItem("name");
        var name = field && typeof field.value === "string" ? field.value.normalize("NFC").trim() : "";
        var problem = nameProblem(name);
        if (problem) return say(problem);
        run("register", name);
      });
    }
    if (section.dataset.conditionalUi === "true") {
      lib.browserSupportsWebAuthnAutofill().then(function (supported) {
        // Cancelled whenever a button starts a ceremony: nothing to report.
        if (supported) ceremony(section, "authenticate", "", true).catch(function () {});
      });
    }
  }

  document.querySelectorAll("[data-authlib-webauthn]").forEach(init);
})();
`;

/** FNV-1a, 32 bit, as 8 hex digits: a fingerprint of the script for its cache-busting URL. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The major version of `@simplewebauthn/browser` the script is written for. */
export const SIMPLEWEBAUTHN_BROWSER_MAJOR = 13;

/** Changes whenever the served script changes (its version query makes a long cache lifetime safe). */
export const WEBAUTHN_SCRIPT_VERSION = `${SIMPLEWEBAUTHN_BROWSER_MAJOR}-${fingerprint(WEBAUTHN_CLIENT_SCRIPT)}`;

/** The URL of the served script under `authUrl` (`<origin><basePath>`). */
export function webAuthnScriptUrl(authUrl: string): string {
  return `${authUrl}/webauthn-script?v=${WEBAUTHN_SCRIPT_VERSION}`;
}
