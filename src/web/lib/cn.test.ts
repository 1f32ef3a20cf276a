import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { cn } from "./cn";

const WEB = join(__dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    // cn.ts itself names its groups in strings that are no classes.
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && entry !== "cn.ts" ? [path] : [];
  });
}

/** Every string literal of src/web that reads as a list of Tailwind classes. */
function classStrings(files: string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, "utf8").matchAll(/"([^"\n]+)"|`([^`$\n]+)`/g)) {
      const text = (m[1] ?? m[2] ?? "").trim();
      const tokens = text.split(/\s+/);
      if (tokens.length === 0 || !tokens.every((t) => /^!?-?[a-z0-9[][a-z0-9:\-[\]&_/.!%()=,#'>*@~+]*$/.test(t))) continue;
      if (!tokens.some((t) => /^[a-z:[\]&_=-]*(bg|text|p[xytrbl]?|m[xytrbl]?|w|h|border|rounded|flex|grid|gap|ring|font|shadow|items|justify)(-|$)/.test(t.split(":").pop()!))) continue;
      found.add(tokens.join(" "));
    }
  }
  return [...found];
}

describe("cn", () => {
  it("joins conditional classes", () => {
    expect(cn("a", false, null, undefined, ["b", { c: true, d: false }])).toBe("a b c");
  });

  it("lets a later class override an earlier one of the same kind, and keeps refinements", () => {
    expect(cn("p-6", "pt-0")).toBe("p-6 pt-0");
    expect(cn("px-2 py-1", "p-4")).toBe("p-4");
    expect(cn("bg-white text-gray-900", "bg-gray-50")).toBe("text-gray-900 bg-gray-50");
    expect(cn("text-sm text-gray-600", "text-xs")).toBe("text-gray-600 text-xs");
    expect(cn("border border-gray-200", "border-red-600")).toBe("border border-red-600");
    expect(cn("hover:bg-gray-100", "hover:bg-gray-200 focus:bg-gray-100")).toBe("hover:bg-gray-200 focus:bg-gray-100");
    expect(cn("max-w-lg w-full", "max-w-xl")).toBe("w-full max-w-xl");
    expect(cn("flex h-9 w-full", "w-auto", "hidden")).toBe("h-9 w-auto hidden");
    expect(cn("ring-2 ring-blue-600", "ring-red-600")).toBe("ring-2 ring-red-600");
    expect(cn("h-9 px-4 py-2", "h-8 px-3 text-xs")).toBe("py-2 h-8 px-3 text-xs");
  });

  it("keeps classes it does not know", () => {
    expect(cn("group peer my-own-class", "another-class")).toBe("group peer my-own-class another-class");
  });

  // tailwind-merge is the reference: every class string the app writes, alone and after each UI
  // kit base string (where the kit's cn(base, className) merges them), merges the same way.
  it("merges every class string of src/web as tailwind-merge does", () => {
    const all = classStrings(sourceFiles(WEB));
    const kit = classStrings(sourceFiles(join(WEB, "components")));
    expect(all.length).toBeGreaterThan(300);
    expect(kit.length).toBeGreaterThan(50);
    const differences: string[] = [];
    for (const s of all) if (cn(s) !== twMerge(s)) differences.push(`cn("${s}") = "${cn(s)}", tailwind-merge "${twMerge(s)}"`);
    for (const base of kit) {
      for (const s of all) {
        if (cn(base, s) !== twMerge(base, s)) differences.push(`cn("${base}", "${s}") = "${cn(base, s)}", tailwind-merge "${twMerge(base, s)}"`);
      }
    }
    expect(differences.length === 0 ? [] : [`${differences.length} differences`, ...differences.slice(0, 12)]).toEqual([]);
  });
});
