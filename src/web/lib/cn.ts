import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names and lets later Tailwind classes override earlier ones (shadcn/ui convention):
 * `cn("p-6 bg-white", "pt-0 bg-gray-50")` keeps p-6 and pt-0 (pt-0 refines it) and only bg-gray-50.
 *
 * It does what tailwind-merge did for the classes this app writes, at a tenth of its size (issue 23:
 * tailwind-merge was 8 kB of the JS a signed-in admin downloads before seeing the dashboard).
 * cn.test.ts compares both on every class string of src/web. A class it does not know is kept as
 * it is, never dropped.
 */
export function cn(...inputs: ClassValue[]): string {
  const classes = clsx(inputs).split(/\s+/);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = classes.length - 1; i >= 0; i--) {
    const name = classes[i]!;
    if (!name) continue;
    const group = groupOf(name);
    if (group === null) {
      kept.push(name);
      continue;
    }
    const key = group.variants + group.id;
    if (taken.has(key)) continue;
    taken.add(key);
    for (const other of CONFLICTS[group.id] ?? []) taken.add(group.variants + other);
    kept.push(name);
  }
  return kept.reverse().join(" ");
}

const COLORS = "slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose";
const COLOR = new RegExp(`^((${COLORS})-\\d+|white|black|transparent|current|inherit)(\\/.+)?$`);
const SIDES = ["x", "y", "t", "r", "b", "l", "s", "e"];

/** Classes that are a group by themselves (display, position, ...). */
const SINGLE: Record<string, string> = {};
const single = (id: string, names: string) => names.split(" ").forEach((n) => (SINGLE[n] = id));
single("display", "block inline-block inline flex inline-flex grid inline-grid hidden table table-row table-cell contents flow-root list-item");
single("position", "static fixed absolute relative sticky");
single("visibility", "visible invisible collapse");
single("flex-direction", "flex-row flex-row-reverse flex-col flex-col-reverse");
single("flex-wrap", "flex-wrap flex-wrap-reverse flex-nowrap");
single("text-transform", "uppercase lowercase capitalize normal-case");
single("font-style", "italic not-italic");
single("text-decoration", "underline overline line-through no-underline");
single("sr", "sr-only not-sr-only");
single("text-overflow", "truncate text-ellipsis text-clip");
single("text-wrap", "text-wrap text-nowrap text-balance text-pretty");
single("text-align", "text-left text-center text-right text-justify text-start text-end");
single("font-smoothing", "antialiased subpixel-antialiased");
single("border-collapse", "border-collapse border-separate");
single("border-style", "border-solid border-dashed border-dotted border-double border-hidden border-none");
single("outline-style", "outline-none outline-hidden outline-solid outline-dashed outline-dotted outline-double");
single("table-layout", "table-auto table-fixed");
single("box-sizing", "box-border box-content");
single("isolation", "isolate isolation-auto");
single("grow", "grow grow-0");
single("shrink", "shrink shrink-0");
single("ring-inset", "ring-inset");
single("list-position", "list-inside list-outside");
single("object-fit", "object-contain object-cover object-fill object-none object-scale-down");
single("transition", "transition transition-all transition-colors transition-opacity transition-shadow transition-transform transition-none");

/** Prefixes whose value decides nothing more: `w-4`, `min-w-64`, `gap-x-2`, ... (longest first). */
const PREFIXES = (
  "min-w max-w min-h max-h w h size gap-x gap-y gap space-x space-y inset-x inset-y inset top right bottom left start end " +
  "px py pt pr pb pl ps pe p mx my mt mr mb ml ms me m z opacity order basis flex grid-cols grid-rows col-span row-span col-start col-end " +
  "items justify-items justify-self justify content place-content place-items place-self self overflow-x overflow-y overflow " +
  "cursor select pointer-events whitespace break leading tracking duration ease delay animate translate-x translate-y scale rotate " +
  "rounded-tl rounded-tr rounded-br rounded-bl rounded-t rounded-r rounded-b rounded-l rounded-s rounded-e rounded align list " +
  "underline-offset line-clamp aspect object columns appearance resize caption float clear scroll-m scroll-p"
)
  .split(" ")
  .sort((a, b) => b.length - a.length);

/** Later class → earlier classes it overrides as well as its own group. */
const CONFLICTS: Record<string, string[]> = {
  // text-sm sets a line height too.
  "font-size": ["leading"],
  p: SIDES.map((s) => `p${s}`),
  px: ["pr", "pl", "ps", "pe"],
  py: ["pt", "pb"],
  m: SIDES.map((s) => `m${s}`),
  mx: ["mr", "ml", "ms", "me"],
  my: ["mt", "mb"],
  size: ["w", "h"],
  gap: ["gap-x", "gap-y"],
  inset: ["inset-x", "inset-y", "top", "right", "bottom", "left", "start", "end"],
  "inset-x": ["right", "left"],
  "inset-y": ["top", "bottom"],
  overflow: ["overflow-x", "overflow-y"],
  rounded: ["rounded-t", "rounded-r", "rounded-b", "rounded-l", "rounded-s", "rounded-e", "rounded-tl", "rounded-tr", "rounded-br", "rounded-bl"],
  "rounded-t": ["rounded-tl", "rounded-tr"],
  "rounded-r": ["rounded-tr", "rounded-br"],
  "rounded-b": ["rounded-br", "rounded-bl"],
  "rounded-l": ["rounded-tl", "rounded-bl"],
  "border-w": SIDES.map((s) => `border-w-${s}`),
  "border-w-x": ["border-w-r", "border-w-l"],
  "border-w-y": ["border-w-t", "border-w-b"],
  "border-color": SIDES.map((s) => `border-color-${s}`),
};

/** Utilities whose value is a colour or something else: text-sm / text-gray-600, border-2 / border-gray-200, ... */
function valueGroup(prefix: string, value: string): string | null {
  const color = COLOR.test(value) || /^\[(#|rgb|hsl|oklch|color:|var\()/.test(value);
  switch (prefix) {
    case "text":
      return color ? "text-color" : "font-size";
    case "font":
      return /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\[\d+\])$/.test(value) ? "font-weight" : "font-family";
    case "bg":
      if (color) return "bg-color";
      if (/^(auto|cover|contain)$/.test(value)) return "bg-size";
      if (/^(fixed|local|scroll)$/.test(value)) return "bg-attachment";
      if (/^(repeat|no-repeat|repeat-x|repeat-y|repeat-round|repeat-space)$/.test(value)) return "bg-repeat";
      if (/^(clip|origin|blend)-/.test(value)) return `bg-${value.split("-")[0]}`;
      if (/^(center|top|bottom|left|right|left-top|left-bottom|right-top|right-bottom)$/.test(value)) return "bg-position";
      return "bg-image";
    case "ring":
      return color ? "ring-color" : "ring-width";
    case "ring-offset":
      return color ? "ring-offset-color" : "ring-offset-width";
    case "outline":
      return color ? "outline-color" : "outline-width";
    case "outline-offset":
      return "outline-offset";
    case "shadow":
      return color ? "shadow-color" : "shadow";
    case "divide":
      return color ? "divide-color" : /^(x|y)(-|$)/.test(value) ? `divide-${value[0]}` : "divide-style";
    case "decoration":
      return color ? "decoration-color" : /^(solid|double|dotted|dashed|wavy)$/.test(value) ? "decoration-style" : "decoration-thickness";
    case "stroke":
      return color ? "stroke-color" : "stroke-width";
    case "fill":
    case "placeholder":
    case "caret":
    case "accent":
    case "from":
    case "via":
    case "to":
      return `${prefix}-color`;
    default:
      return null;
  }
}

const VALUED = /^(ring-offset|outline-offset|text|font|bg|ring|outline|shadow|divide|decoration|stroke|fill|placeholder|caret|accent|from|via|to)(?:-(.+))?$/;

function groupOf(name: string): { variants: string; id: string } | null {
  // Variants (hover:, sm:, [&_tr]:) end at the last colon outside brackets; their order does not matter.
  let depth = 0;
  let cut = -1;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === ":" && depth === 0) cut = i;
  }
  const variants = cut < 0 ? "" : `${name.slice(0, cut).split(":").sort().join(":")}:`;
  let base = name.slice(cut + 1);
  const important = base.startsWith("!") || base.endsWith("!") ? "!" : "";
  base = base.replace(/^!|!$/g, "").replace(/^-/, "");
  const id = utilityGroup(base);
  return id === null ? null : { variants: variants + important, id };
}

function utilityGroup(base: string): string | null {
  if (SINGLE[base]) return SINGLE[base];
  const arbitrary = /^\[([a-z-]+):/.exec(base);
  if (arbitrary) return `[${arbitrary[1]}]`;
  if (base === "border" || /^border-(\d+|\[\d[^\]]*\])$/.test(base)) return "border-w";
  const border = /^border-([xytrblse])(?:-(.+))?$/.exec(base);
  if (border) {
    const value = border[2];
    return value === undefined || /^(\d+|\[\d[^\]]*\])$/.test(value) ? `border-w-${border[1]}` : `border-color-${border[1]}`;
  }
  if (base.startsWith("border-spacing")) return "border-spacing";
  if (base.startsWith("border-")) return "border-color";
  const valued = VALUED.exec(base);
  if (valued) {
    const value = valued[2] ?? "";
    if (valued[1] === "shadow" || valued[1] === "ring" || valued[1] === "outline") return valueGroup(valued[1], value || "DEFAULT");
    if (value) return valueGroup(valued[1]!, value);
  }
  for (const prefix of PREFIXES) {
    // Only the rounded corners stand alone (`rounded`, `rounded-t`); others take a value (`w-4`).
    if (base.startsWith(`${prefix}-`) || (base === prefix && prefix.startsWith("rounded"))) return prefix;
  }
  return null;
}
