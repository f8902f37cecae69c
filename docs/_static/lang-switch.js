// The site-wide language switch (中文 / English).
//
// Every bilingual passage is a sphinx-design tab-set synchronised on the group "lang"
// (tab ids "zh" and "en"). sphinx-design (0.8) already syncs the tabs of one page and keeps
// the choice in localStorage under "sphinx-design-tab-id-lang"; "?lang=en" preselects.
// This script adds the navbar buttons, applies the stored choice on pages that have no
// tab-set of their own (and to the .dt-zh / .dt-en spans outside tabs), and keeps the
// buttons in step when a reader clicks a tab directly.
(function () {
  "use strict";
  const GROUP = "lang";
  const KEY = "sphinx-design-tab-id-" + GROUP;
  const LANGS = ["zh", "en"];

  function stored() {
    try {
      const v = window.localStorage.getItem(KEY);
      return LANGS.includes(v) ? v : null;
    } catch (err) {
      return null;
    }
  }

  function store(lang) {
    try {
      window.localStorage.setItem(KEY, lang);
    } catch (err) {
      // no persistence available (private mode, blocked storage): the page still switches
    }
  }

  function inputsFor(lang) {
    const selector = `.sd-tab-label[data-sync-group="${GROUP}"][data-sync-id="${lang}"]`;
    return Array.from(document.querySelectorAll(selector))
      .map((label) => document.getElementById(label.getAttribute("for")))
      .filter((input) => input instanceof HTMLInputElement);
  }

  function show(lang) {
    document.documentElement.dataset.dtLang = lang;
    document.querySelectorAll(".dt-lang-btn").forEach((btn) => {
      const on = btn.dataset.lang === lang;
      btn.classList.toggle("active", on);
      btn.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  function select(lang) {
    // setting .checked fires no event, so tabs are not re-synced in a cascade
    inputsFor(lang).forEach((input) => {
      input.checked = true;
    });
    store(lang);
    show(lang);
  }

  function init() {
    const param = new URLSearchParams(window.location.search).get(GROUP);
    const lang = LANGS.includes(param) ? param : stored() || "zh";
    select(lang);
    document.querySelectorAll(".dt-lang-btn").forEach((btn) => {
      btn.addEventListener("click", () => select(btn.dataset.lang));
    });
    // a click on a tab: sphinx-design syncs the other tab-sets and stores it; follow it here
    LANGS.forEach((l) =>
      inputsFor(l).forEach((input) =>
        input.addEventListener("change", () => {
          if (input.checked) show(l);
        })
      )
    );
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
