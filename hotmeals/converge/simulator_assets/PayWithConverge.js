/*
 * Stand-in for Converge's PayWithConverge.js, served by the hotmeals Converge simulator.
 * Same entry point as the real Lightbox:
 *
 *   PayWithConverge.open({ssl_txn_auth_token: token},
 *     {onApproval(resp) {}, onDeclined(resp) {}, onCancelled() {}, onError(err) {}});
 *
 * It opens an accessible modal card form and posts the card to the simulator that served this
 * script (URLs are derived from this script's own src, so any mount prefix works). Test cards
 * only. Element ids for tests: pwc-dialog, pwc-card-number, pwc-exp-date, pwc-cvv,
 * pwc-pay, pwc-cancel, pwc-error. open() accepts an optional `lang: "fr"`. As in Converge's
 * Lightbox, the form offers no "save this card": the session decides (ssl_get_token and
 * ssl_add_token, from the app's own "Save this card" box).
 */
(function () {
  "use strict";

  var SCRIPT_PATH = /\/hosted-payments\/PayWithConverge\.js(?:[?#].*)?$/;

  function findScript() {
    var current = document.currentScript;
    if (current && SCRIPT_PATH.test(current.src)) return current;
    var scripts = document.getElementsByTagName("script");
    for (var i = scripts.length - 1; i >= 0; i--) {
      if (SCRIPT_PATH.test(scripts[i].src)) return scripts[i];
    }
    return null;
  }

  // Resolved now: document.currentScript is null once this file has finished running.
  var script = findScript();
  var HOSTED = (script ? script.src.replace(SCRIPT_PATH, "") : "") + "/hosted-payments";

  // "1234.56" (Converge's two decimals) with the language's group and decimal marks, as the
  // app's domain/money.py writes it (Babel: "$1,234.56", "1 234,56 $").
  function grouped(amount, group, decimal) {
    var parts = String(amount).split(".");
    return parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, group) + decimal + (parts[1] || "00");
  }

  var TEXT = {
    en: {
      title: "Pay by card",
      amount: "Amount",
      invoice: "Invoice",
      colon: ": ",
      money: function (amount) { return "$" + grouped(amount, ",", "."); },
      note: "Payment simulator: no real card is charged. Test card 4000 0000 0000 0002.",
      number: "Card number",
      expiry: "Expiry date (MMYY)",
      cvv: "Security code (CVV)",
      pay: "Pay",
      saveOnly: "Save card",
      cancel: "Cancel",
      busy: "Processing, please wait…",
      badNumber: "Enter a valid card number.",
      badExpiry: "Enter the expiry date as MMYY, for example 0928.",
      badCvv: "Enter the 3 or 4 digit security code.",
      network: "The payment service could not be reached.",
    },
    fr: {
      title: "Payer par carte",
      amount: "Montant",
      invoice: "Facture",
      colon: "\u00a0: ",
      // "15,26 $", as French Canada writes it.
      money: function (amount) { return grouped(amount, "\u00a0", ",") + "\u00a0$"; },
      note: "Simulateur de paiement : aucune vraie carte n'est débitée. Carte test 4000 0000 0000 0002.",
      number: "Numéro de carte",
      expiry: "Date d'expiration (MMAA)",
      cvv: "Code de sécurité (CVV)",
      pay: "Payer",
      saveOnly: "Enregistrer la carte",
      cancel: "Annuler",
      busy: "Traitement en cours, veuillez patienter…",
      badNumber: "Entrez un numéro de carte valide.",
      badExpiry: "Entrez la date d'expiration au format MMAA, par exemple 0928.",
      badCvv: "Entrez le code de sécurité à 3 ou 4 chiffres.",
      network: "Le service de paiement est injoignable.",
    },
  };

  var STYLE =
    ".pwc-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.55);display:flex;" +
    "align-items:center;justify-content:center;z-index:2147483000;padding:16px}" +
    ".pwc-dialog{background:#fff;color:#1a1a1a;border-radius:12px;width:100%;max-width:420px;" +
    "max-height:100%;overflow:auto;padding:24px;box-shadow:0 10px 40px rgba(0,0,0,.3);" +
    "font:16px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;box-sizing:border-box}" +
    ".pwc-dialog h2{margin:0 0 8px;font-size:1.25rem}" +
    ".pwc-dialog p{margin:0 0 12px}.pwc-note{font-size:.875rem;color:#4a4a4a}" +
    ".pwc-field{margin:0 0 12px}.pwc-field label{display:block;font-weight:600;margin:0 0 4px}" +
    ".pwc-field input{width:100%;box-sizing:border-box;min-height:44px;padding:8px 12px;" +
    "font-size:16px;border:1px solid #767676;border-radius:8px}" +
    ".pwc-field input[aria-invalid=true]{border-color:#b00020;border-width:2px}" +
    ".pwc-row{display:flex;gap:12px}.pwc-row .pwc-field{flex:1}" +
    ".pwc-error{color:#b00020;font-weight:600;min-height:1.4em}" +
    ".pwc-actions{display:flex;gap:12px;justify-content:flex-end;flex-wrap:wrap}" +
    ".pwc-actions button{min-height:44px;min-width:96px;padding:8px 16px;font-size:16px;" +
    "border-radius:8px;cursor:pointer;border:1px solid #1a1a1a;background:#fff;color:#1a1a1a}" +
    ".pwc-actions button[type=submit]{background:#0b5394;border-color:#0b5394;color:#fff}" +
    ".pwc-actions button:disabled{opacity:.6;cursor:progress}" +
    ".pwc-dialog :focus-visible{outline:3px solid #f5a623;outline-offset:2px}";

  var active = null; // the open dialog, so a double click never opens two

  function make(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function luhnValid(digits) {
    var total = 0;
    for (var i = 0; i < digits.length; i++) {
      var digit = Number(digits.charAt(digits.length - 1 - i));
      if (i % 2 === 1) digit = digit > 4 ? digit * 2 - 9 : digit * 2;
      total += digit;
    }
    return total % 10 === 0;
  }

  function notify(callbacks, name, arg) {
    var fn = callbacks && callbacks[name];
    if (typeof fn !== "function") return;
    try {
      fn(arg);
    } catch (err) {
      setTimeout(function () {
        throw err;
      });
    }
  }

  function errorOf(code, name, message) {
    return { errorCode: code, errorName: name, errorMessage: message };
  }

  function field(id, label, attrs) {
    var input = make("input", Object.assign({ id: id, type: "text" }, attrs));
    return make("div", { class: "pwc-field" }, [make("label", { for: id, text: label }), input]);
  }

  function show(token, info, callbacks, t) {
    if (!document.getElementById("pwc-style")) {
      document.head.appendChild(make("style", { id: "pwc-style", text: STYLE }));
    }
    var saleLike = info.ssl_transaction_type === "ccsale";
    var summary = [];
    if (info.ssl_amount) summary.push(t.amount + t.colon + t.money(info.ssl_amount));
    if (info.ssl_invoice_number) summary.push(t.invoice + " " + info.ssl_invoice_number);

    var error = make("p", { id: "pwc-error", class: "pwc-error", role: "alert" });
    var pay = make("button", {
      id: "pwc-pay",
      type: "submit",
      text: saleLike ? t.pay + (info.ssl_amount ? " " + t.money(info.ssl_amount) : "") : t.saveOnly,
    });
    var cancel = make("button", { id: "pwc-cancel", type: "button", text: t.cancel });
    var form = make("form", { id: "pwc-form", novalidate: "" }, [
      field("pwc-card-number", t.number, {
        name: "ssl_card_number",
        inputmode: "numeric",
        autocomplete: "cc-number",
        maxlength: "23",
        "aria-describedby": "pwc-error",
        required: "",
      }),
      make("div", { class: "pwc-row" }, [
        field("pwc-exp-date", t.expiry, {
          name: "ssl_exp_date",
          inputmode: "numeric",
          autocomplete: "cc-exp",
          maxlength: "5",
          placeholder: "MMYY",
          "aria-describedby": "pwc-error",
          required: "",
        }),
        field("pwc-cvv", t.cvv, {
          name: "ssl_cvv2cvc2",
          inputmode: "numeric",
          autocomplete: "cc-csc",
          maxlength: "4",
          "aria-describedby": "pwc-error",
        }),
      ]),
      error,
      make("div", { class: "pwc-actions" }, [cancel, pay]),
    ]);
    var dialog = make(
      "div",
      {
        id: "pwc-dialog",
        class: "pwc-dialog",
        role: "dialog",
        "aria-modal": "true",
        "aria-labelledby": "pwc-title",
        "aria-describedby": "pwc-summary",
        tabindex: "-1",
      },
      [
        make("h2", { id: "pwc-title", text: t.title }),
        make("p", { id: "pwc-summary", text: summary.join(" · ") }),
        make("p", { class: "pwc-note", text: t.note }),
        form,
      ]
    );
    var backdrop = make("div", { class: "pwc-backdrop", "data-testid": "pwc-backdrop" }, [dialog]);
    var state = { busy: false, returnFocus: document.activeElement, overflow: "" };
    active = state;

    function close(callbackName, arg) {
      document.removeEventListener("keydown", onKey, true);
      if (backdrop.parentNode) backdrop.parentNode.removeChild(backdrop);
      document.body.style.overflow = state.overflow;
      active = null;
      if (state.returnFocus && state.returnFocus.focus) state.returnFocus.focus();
      notify(callbacks, callbackName, arg);
    }

    function focusables() {
      return Array.prototype.filter.call(
        dialog.querySelectorAll("input,button,[href],select,textarea"),
        function (node) {
          return !node.disabled && node.offsetParent !== null;
        }
      );
    }

    function onKey(event) {
      if (event.key === "Escape") {
        event.preventDefault();
        // Never report "cancelled" while a payment may be going through.
        if (!state.busy) close("onCancelled");
        return;
      }
      if (event.key !== "Tab") return;
      var nodes = focusables();
      if (!nodes.length) return;
      var first = nodes[0];
      var last = nodes[nodes.length - 1];
      if (!dialog.contains(document.activeElement)) {
        event.preventDefault();
        first.focus();
      } else if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }

    function invalid(inputId, message) {
      var input = document.getElementById(inputId);
      error.textContent = message;
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    }

    function setBusy(busy) {
      state.busy = busy;
      pay.disabled = busy;
      cancel.disabled = busy;
      form.setAttribute("aria-busy", busy ? "true" : "false");
      if (busy) error.textContent = t.busy;
    }

    cancel.addEventListener("click", function () {
      if (!state.busy) close("onCancelled");
    });

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (state.busy) return;
      ["pwc-card-number", "pwc-exp-date", "pwc-cvv"].forEach(function (id) {
        document.getElementById(id).removeAttribute("aria-invalid");
      });
      var number = document.getElementById("pwc-card-number").value.replace(/[\s-]/g, "");
      var expiry = document.getElementById("pwc-exp-date").value.replace(/[\s/]/g, "");
      var cvv = document.getElementById("pwc-cvv").value.trim();
      if (!/^\d{13,19}$/.test(number) || !luhnValid(number)) {
        return invalid("pwc-card-number", t.badNumber);
      }
      if (!/^(0[1-9]|1[0-2])\d\d$/.test(expiry)) return invalid("pwc-exp-date", t.badExpiry);
      if (cvv && !/^\d{3,4}$/.test(cvv)) return invalid("pwc-cvv", t.badCvv);
      setBusy(true);
      var body = new URLSearchParams({
        ssl_txn_auth_token: token,
        ssl_card_number: number,
        ssl_exp_date: expiry,
        ssl_cvv2cvc2: cvv,
      });
      fetch(HOSTED + "/process", { method: "POST", body: body, cache: "no-store" })
        .then(function (response) {
          if (!response.ok) {
            throw errorOf(String(response.status), "HTTP Error", "The payment service failed.");
          }
          return response.json();
        })
        .then(function (result) {
          if (result.outcome === "approval") return close("onApproval", result.response);
          if (result.outcome === "declined") return close("onDeclined", result.response);
          if (result.outcome === "invalid") {
            setBusy(false);
            var target = result.error.errorCode === "5001" ? "pwc-exp-date" : "pwc-card-number";
            if (result.error.errorCode === "5021") target = "pwc-cvv";
            return invalid(target, result.error.errorMessage);
          }
          close("onError", result.error || errorOf("3000", "Error", "Unexpected answer."));
        })
        .catch(function (err) {
          var detail = err && err.errorCode ? err : errorOf("NETWORK", "Network Error", t.network);
          close("onError", detail);
        });
    });

    document.addEventListener("keydown", onKey, true);
    state.overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    document.body.appendChild(backdrop);
    document.getElementById("pwc-card-number").focus();
  }

  function open(params, callbacks) {
    params = params || {};
    callbacks = callbacks || {};
    var token = params.ssl_txn_auth_token;
    if (active) return; // already open: ignore a second click
    if (!token) {
      notify(callbacks, "onError", errorOf("4009", "Required Field Not Supplied",
        "ssl_txn_auth_token is required."));
      return;
    }
    var lang = String(params.lang || document.documentElement.lang || "en").slice(0, 2);
    var t = TEXT[lang] || TEXT.en;
    active = { busy: true };
    fetch(HOSTED + "/session?ssl_txn_auth_token=" + encodeURIComponent(token), {
      cache: "no-store",
    })
      .then(function (response) {
        return response.json();
      })
      .then(function (info) {
        active = null;
        if (!info.ok) return notify(callbacks, "onError", info.error);
        show(token, info, callbacks, t);
      })
      .catch(function () {
        active = null;
        notify(callbacks, "onError", errorOf("NETWORK", "Network Error", t.network));
      });
  }

  window.PayWithConverge = { open: open };
})();
