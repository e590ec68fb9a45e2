/* What the forms and dialogs need beyond React.

   1. One tap, one submission. A button marked data-hm-once is disabled from the first
   tap until the server has answered that submission: its state's "turn" counter, rendered as
   data-hm-turn, changes when the handler ends, whatever the outcome. A second tap in between
   never reaches the app. The server refuses a repeat anyway (services/submissions.py); this
   is what the parent sees. */
(function () {
  "use strict";
  var LOCK = "data-hm-locked";

  function lock(button, turn) {
    button.setAttribute(LOCK, turn);
    button.setAttribute("aria-busy", "true");
    button.disabled = true;
  }

  function refuse(event) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  // Forms: lock the submit button once the submission has started (locking it on the click
  // would cancel the submission itself).
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      var button = event.submitter;
      if (!button || !button.hasAttribute("data-hm-once")) {
        button = form.querySelector && form.querySelector("[data-hm-once][type=submit]");
      }
      if (!button) return;
      if (button.hasAttribute(LOCK)) return refuse(event);
      lock(button, button.getAttribute("data-hm-turn") || "");
    },
    true
  );

  // Buttons that act on a click: lock right after the app has seen this click.
  document.addEventListener(
    "click",
    function (event) {
      var button = event.target && event.target.closest && event.target.closest("[data-hm-once]");
      if (!button || button.type === "submit") return;
      if (button.hasAttribute(LOCK)) return refuse(event);
      var turn = button.getAttribute("data-hm-turn") || "";
      setTimeout(function () {
        // Unless the answer already came (then there is nothing left to protect).
        if ((button.getAttribute("data-hm-turn") || "") === turn) lock(button, turn);
      }, 0);
    },
    true
  );

  // The server answered: release.
  function watch() {
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        var button = record.target;
        if (
          button.hasAttribute(LOCK) &&
          button.getAttribute("data-hm-turn") !== button.getAttribute(LOCK)
        ) {
          button.removeAttribute(LOCK);
          button.disabled = false;
          button.setAttribute("aria-busy", "false");
        }
      });
    }).observe(document.documentElement, {
      subtree: true,
      attributes: true,
      attributeFilter: ["data-hm-turn"],
    });
  }
  watch();
})();

/* 1b. The focus around a submission.
   A press on a submit (or one-tap) button is never lost to a field's check. Pressing the
   button would blur the field the parent just corrected; that field's check answers at once and
   takes its message away, the button moves up by a line, and the release lands beside it: no
   click, nothing sent (seen on a desktop, where a press lasts longer than the answer takes).
   So the press does not move the focus; the click itself does, before the app sees the click,
   so the field's last change and its check still go before the submission, as they did. A
   click from the keyboard (Enter in a field, Space on the button) is left as it is.
   1c. The focus a form's answer asks for (ui/shared_state/forms.focus_field: the field refused, the
   code field that opens) goes there unless the parent has gone to another field since sending
   the form: an answer that comes late never pulls the cursor out of the field being typed in
   (the letters would land in the other field). Enter in a field, a tap on a button: sent. */
(function () {
  "use strict";
  var COMMIT = "button[type=submit],[data-hm-once]";
  var FIELD = "input,textarea,select";
  var pressed = null; // the commit button pressed while a field had the focus
  var moved = false; // the parent went to another field since the last submission
  var focusing = false;

  function isField(el) {
    return !!(el && el.matches && el.matches(FIELD));
  }

  document.addEventListener(
    "mousedown",
    function (event) {
      pressed = null;
      if (event.button !== 0) return;
      var button = event.target && event.target.closest && event.target.closest(COMMIT);
      if (!button || button.disabled || !isField(document.activeElement)) return;
      event.preventDefault(); // the field keeps the focus until the click
      pressed = button;
    },
    true
  );

  document.addEventListener(
    "click",
    function (event) {
      var button = pressed;
      pressed = null;
      if (button && event.detail !== 0 && button.contains(event.target)) {
        button.focus({ preventScroll: true }); // the field's blur, then the click goes on
      }
      if (event.target && event.target.closest && event.target.closest("button")) moved = false;
    },
    true
  );
  document.addEventListener(
    "submit",
    function () {
      moved = false;
    },
    true
  );
  document.addEventListener(
    "focusin",
    function (event) {
      if (!focusing && isField(event.target)) moved = true;
    },
    true
  );

  window.hmFocus = function (id) {
    var field = document.getElementById(id);
    if (!field || typeof field.focus !== "function") return;
    if (moved && field !== document.activeElement) return;
    focusing = true;
    try {
      field.focus();
    } finally {
      focusing = false;
    }
  };
})();

/* 2. Focus goes back to what opened a dialog. The app's dialogs are opened by the server
   (logout, delete, terms), not by a Radix trigger, so Radix has nowhere to put the focus when
   they close and it falls to the page. The control the parent last used outside a dialog is
   remembered (a menu item stands for its menu's summary) and focused again on close. */
(function () {
  "use strict";
  var DIALOG = "[role=dialog],[role=alertdialog]";
  var opener = null;

  function control(el) {
    if (!el || !el.closest || el.closest(DIALOG)) return null;
    var menu = el.closest("details.hm-menu");
    if (menu) return menu.querySelector("summary");
    return el.closest("button,a[href],input,select,textarea,[tabindex]");
  }

  function remember(event) {
    var found = control(event.target);
    if (found) opener = found;
  }
  document.addEventListener("focusin", remember, true);
  // A click does not focus a button everywhere (Safari): the pressed control counts too.
  document.addEventListener("pointerdown", remember, true);

  var open = false;
  new MutationObserver(function () {
    var now = document.querySelector(DIALOG) !== null;
    if (open && !now) {
      var target = opener;
      setTimeout(function () {
        var active = document.activeElement;
        if ((!active || active === document.body) && target && target.isConnected) {
          target.focus();
        }
      }, 0);
    }
    open = now;
  }).observe(document.documentElement, { childList: true, subtree: true });
})();

/* 3. The page's language and the toasts' place. The <html> element says the language the page
   is in (lang="fr-CA" in French, for screen readers and translation tools): the stored choice
   (docs/product.md §1, localStorage "lang"), read at once and again whenever the page changes
   (the app writes the choice before it redraws). On a phone the toasts start just below the
   header instead of covering it (--hm-toast-top, read by the toaster): measured only while a
   toast is on screen, since measuring the header forces a layout, and after every change
   of the page that was one per frame while React hydrates. */
(function () {
  "use strict";
  var root = document.documentElement;

  function setLang() {
    var value = "en-CA"; // as the page's content says it (I18nState.html_lang)
    try {
      value = window.localStorage.getItem("lang") === "fr" ? "fr-CA" : "en-CA";
    } catch (e) {
      /* storage refused: English, the default (docs/product.md §1) */
    }
    if (root.lang !== value) root.lang = value;
  }
  setLang();

  var queued = false;
  var placed = null;
  function placeToasts() {
    var header = document.querySelector("header");
    var top = 16;
    if (header) {
      var bottom = header.getBoundingClientRect().bottom;
      if (bottom > 0) top = Math.round(bottom) + 8;
    }
    if (top !== placed) {
      placed = top;
      root.style.setProperty("--hm-toast-top", top + "px");
    }
  }
  // A toast belongs to the screen it was shown on: leaving the screen closes the
  // toasts that were already there. One shown with the move (a success that sends the parent
  // elsewhere, "session expired") is younger than LEAVE_MS when the address changes: it stays.
  var LEAVE_MS = 1500;
  var path = window.location.pathname;
  function leaveScreen() {
    var now = Date.now();
    var toasts = document.querySelectorAll("[data-sonner-toast]");
    for (var i = 0; i < toasts.length; i++) {
      var born = Number(toasts[i].getAttribute("data-hm-born") || 0);
      if (!born) {
        toasts[i].setAttribute("data-hm-born", String(now));
      } else if (path !== window.location.pathname && now - born > LEAVE_MS) {
        var close = toasts[i].querySelector("button[data-close-button]");
        if (close) close.click();
      }
    }
    path = window.location.pathname;
  }
  function update() {
    queued = false;
    setLang();
    leaveScreen();
    // Before the frame that first shows a toast is drawn (a frame callback), so it never
    // appears over the header.
    if (document.querySelector("[data-sonner-toast]")) placeToasts();
  }
  function later() {
    if (!queued) {
      queued = true;
      window.requestAnimationFrame(update);
    }
  }
  window.addEventListener("resize", later, { passive: true });
  window.addEventListener("scroll", later, { passive: true });
  new MutationObserver(later).observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["lang"],
  });
  later();
})();

/* 4. Fields that take digits only (the e-mailed code): anything else is dropped as typed or
   pasted, so "123 456" or "Code: 123456" becomes the code; data-hm-digits="6" keeps six. */
document.addEventListener(
  "input",
  function (event) {
    var field = event.target;
    if (!field || !field.hasAttribute || !field.hasAttribute("data-hm-digits")) return;
    var most = parseInt(field.getAttribute("data-hm-digits"), 10);
    var digits = field.value.replace(/\D+/g, "");
    if (most > 0) digits = digits.slice(0, most);
    if (digits !== field.value) field.value = digits;
  },
  true
);

/* 5. Show or hide a password (components/forms.reveal_button): only the field's type changes,
   in the browser. */
document.addEventListener("click", function (event) {
  var button = event.target && event.target.closest && event.target.closest("[data-hm-reveal]");
  if (!button) return;
  var field = document.getElementById(button.getAttribute("data-hm-reveal"));
  if (!field) return;
  var shown = field.type === "password";
  field.type = shown ? "text" : "password";
  button.setAttribute("aria-pressed", shown ? "true" : "false");
  var show = button.querySelector("[data-hm-reveal-show]");
  var hide = button.querySelector("[data-hm-reveal-hide]");
  if (show) show.hidden = shown;
  if (hide) hide.hidden = !shown;
});

/* 6. The header's menus (components/disclosure.py): native <details> disclosures. An open one
   closes on Escape (focus back on its summary), on a tap or a focus outside it, and once one
   of its items is chosen (focus back on its summary: a dialog that item opens gives the focus
   back there). */
(function () {
  "use strict";
  var OPEN = "details.hm-menu[open]";

  function close(menu, focus) {
    menu.open = false;
    if (focus) {
      var summary = menu.querySelector("summary");
      if (summary) summary.focus();
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    document.querySelectorAll(OPEN).forEach(function (menu) {
      if (!menu.contains(target)) close(menu, false);
      else if (target.closest && target.closest(".hm-menu-item")) close(menu, true);
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    document.querySelectorAll(OPEN).forEach(function (menu) {
      close(menu, menu.contains(document.activeElement));
    });
  });
  document.addEventListener("focusin", function (event) {
    document.querySelectorAll(OPEN).forEach(function (menu) {
      if (!menu.contains(event.target)) close(menu, false);
    });
  });
})();
