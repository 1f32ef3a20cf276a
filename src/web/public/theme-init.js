// Applies the stored theme (issue 23) before the first paint. A classic script loaded synchronously
// from <head> of index.html: the CSP allows scripts from 'self' only, never inline ones, so this is a
// file of its own (served as is, not bundled). src/web/app/theme.ts keeps the same key and rules.
/* global window, document */
(function () {
  var choice = "system";
  try {
    var stored = window.localStorage.getItem("theme");
    if (stored === "light" || stored === "dark") choice = stored;
  } catch {
    // Storage blocked: follow the system.
  }
  var dark = choice === "dark" || (choice === "system" && !!window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  var root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.setAttribute("data-theme", choice);
})();
