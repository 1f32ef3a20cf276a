import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyTheme, readThemeChoice, setThemeChoice, THEME_STORAGE_KEY } from "./theme";

/** public/theme-init.js, run as the browser runs it before the first paint. */
const themeInit = new Function(readFileSync(join(__dirname, "../public/theme-init.js"), "utf8"));

function systemDark(dark: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: dark && query === "(prefers-color-scheme: dark)", addEventListener() {}, removeEventListener() {} }));
}

const root = () => document.documentElement;

describe("theme", () => {
  afterEach(() => {
    localStorage.clear();
    root().classList.remove("dark");
    root().removeAttribute("data-theme");
    vi.unstubAllGlobals();
  });

  for (const [stored, system, dark] of [
    [null, false, false],
    [null, true, true],
    ["dark", false, true],
    ["light", true, false],
    ["nonsense", true, true],
  ] as const) {
    it(`theme-init.js and theme.ts agree: stored ${stored}, system ${system ? "dark" : "light"} -> ${dark ? "dark" : "light"}`, () => {
      systemDark(system);
      if (stored) localStorage.setItem(THEME_STORAGE_KEY, stored);
      themeInit();
      expect(root().classList.contains("dark")).toBe(dark);
      const fromInit = root().getAttribute("data-theme");
      root().classList.remove("dark");
      applyTheme();
      expect(root().classList.contains("dark")).toBe(dark);
      expect(root().getAttribute("data-theme")).toBe(fromInit);
      expect(readThemeChoice()).toBe(fromInit);
    });
  }

  it("stores light and dark, forgets the choice for system", () => {
    systemDark(true);
    setThemeChoice("light");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    expect(root().classList.contains("dark")).toBe(false);
    setThemeChoice("system");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(root().classList.contains("dark")).toBe(true);
  });
});
