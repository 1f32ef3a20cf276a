import { useSyncExternalStore } from "react";

/**
 * The colour theme (issue 23): light, dark or the system's, chosen in the user menu and remembered
 * per browser. public/theme-init.js applies the stored choice before the first paint (the CSP allows
 * no inline script, so it is a file of its own); this module keeps <html> in step afterwards, also
 * when the system's setting changes while "system" is chosen. The same storage key in both.
 */
export type ThemeChoice = "light" | "dark" | "system";

export const THEME_STORAGE_KEY = "theme";
export const THEME_CHOICES: ReadonlyArray<{ value: ThemeChoice; label: string }> = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
];

const DARK_QUERY = "(prefers-color-scheme: dark)";
const listeners = new Set<() => void>();

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(DARK_QUERY).matches;
}

/** Sets the class and data attribute theme-init.js sets: `dark` on <html> when the theme is dark. */
export function applyTheme(choice: ThemeChoice = readThemeChoice()): void {
  const dark = choice === "dark" || (choice === "system" && systemPrefersDark());
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.setAttribute("data-theme", choice);
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === "system") window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage blocked: the choice holds for this page only.
  }
  applyTheme(choice);
  notify();
}

function notify(): void {
  listeners.forEach((l) => l());
}

/**
 * Called once at boot (main.tsx): follows the system's setting while "system" is chosen, and a
 * choice made in another tab of this browser.
 */
export function followThemeChanges(): void {
  window.addEventListener("storage", (event) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    applyTheme();
    notify();
  });
  if (typeof window.matchMedia === "function") window.matchMedia(DARK_QUERY).addEventListener("change", () => applyTheme());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored choice, re-rendering when it changes (here or in another tab). */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, readThemeChoice, () => "system");
}
