import type { Random } from "./random.ts";

/** Name material for artist stores, owners and products, shared by the demo seed and the generator. */
const FIRST_NAMES = [
  "Amara",
  "Bastien",
  "Camille",
  "Dario",
  "Elif",
  "Farah",
  "Gideon",
  "Hana",
  "Ines",
  "Jonas",
  "Kaia",
  "Luca",
  "Mei",
  "Nadia",
  "Oskar",
  "Priya",
  "Quentin",
  "Rosa",
  "Soren",
  "Talia",
  "Umar",
  "Vera",
  "Wren",
  "Ximena",
  "Yara",
  "Zane",
  "Noor",
  "Matteo",
  "Lena",
  "Kofi",
  "Isla",
  "Hugo",
  "Greta",
  "Felix",
  "Esme",
  "Diego",
] as const;
const LAST_NAMES = [
  "Okafor",
  "Lindqvist",
  "Moreau",
  "Tanaka",
  "Alvarez",
  "Novak",
  "Haddad",
  "Kowalski",
  "Fischer",
  "Osei",
  "Rossi",
  "Nakamura",
  "Dubois",
  "Bergström",
  "Castillo",
  "Mensah",
  "Ivanova",
  "Quinn",
  "Sato",
  "Laurent",
  "Petrov",
  "Achebe",
  "Varga",
  "Holm",
  "Ferreira",
  "Kim",
  "Byrne",
  "Silva",
  "Yilmaz",
  "Costa",
] as const;
const CRAFTS = [
  "Ceramics",
  "Prints",
  "Glassworks",
  "Textiles",
  "Woodcraft",
  "Paintings",
  "Jewelry",
  "Photography",
  "Illustration",
  "Pottery",
  "Sculpture",
  "Letterpress",
  "Weaving",
  "Metalwork",
  "Botanicals",
] as const;
const STORE_WORDS = ["Atelier", "Studio", "Workshop", "House", "Collective", "Gallery", "Press", "Kiln", "Loom", "Forge"] as const;
const STORE_ADJECTIVES = ["Quiet", "Golden", "Wild", "Northern", "Salt", "Copper", "Indigo", "Hollow", "Velvet", "Ember", "Tidal", "Paper"] as const;
const STORE_NOUNS = ["Fern", "Harbor", "Moth", "Meadow", "Lantern", "Heron", "Orchard", "Pebble", "Thistle", "Fox", "Willow", "Comet"] as const;
const PRODUCT_ADJECTIVES = [
  "Speckled",
  "Hand-thrown",
  "Glazed",
  "Botanical",
  "Abstract",
  "Vintage-style",
  "Miniature",
  "Oversized",
  "Limited-edition",
  "Hand-painted",
  "Woven",
  "Carved",
  "Gilded",
  "Coastal",
  "Midnight",
  "Sunlit",
] as const;
const PRODUCT_NOUNS = [
  "Mug",
  "Vase",
  "Print",
  "Tote",
  "Necklace",
  "Bowl",
  "Wall Hanging",
  "Poster",
  "Candle Holder",
  "Earrings",
  "Sketchbook",
  "Plate",
  "Scarf",
  "Linocut",
  "Canvas",
  "Planter",
  "Bookmark",
  "Photo Print",
  "Brooch",
  "Cushion",
] as const;
export const THEMES = ["default", "minimal", "bold", "classic", "gallery", "vibrant", "dark"] as const;
/** [primary, secondary] colour pairs. */
export const PALETTES = [
  ["#1f2937", "#9ca3af"],
  ["#7c2d12", "#fdba74"],
  ["#14532d", "#86efac"],
  ["#1e3a8a", "#93c5fd"],
  ["#581c87", "#d8b4fe"],
  ["#831843", "#f9a8d4"],
  ["#0f766e", "#99f6e4"],
  ["#713f12", "#fde68a"],
] as const;
const ABOUT_OPENINGS = [
  "Small-batch work made by hand in a tiny studio.",
  "Every piece starts as a sketch on the kitchen table.",
  "Inspired by coastlines, old maps and long walks.",
  "Slow craft, natural materials, nothing mass-produced.",
  "Colour-first designs printed and packed by the artist.",
] as const;
const ABOUT_CLOSINGS = [
  "Commissions open twice a year.",
  "Ships worldwide in plastic-free packaging.",
  "A share of every sale supports local art classes.",
  "New collections drop at the start of each season.",
  "Thank you for supporting independent makers!",
] as const;

export interface PersonName {
  first: string;
  last: string;
  full: string;
}

export function personName(rand: Random): PersonName {
  const first = rand.pick(FIRST_NAMES);
  const last = rand.pick(LAST_NAMES);
  return { first, last, full: `${first} ${last}` };
}

/** An artist store name in one of a few shapes ("Moreau Ceramics", "Velvet Heron Studio", "Hana's Prints"). */
export function storeName(rand: Random, owner: PersonName): string {
  switch (rand.int(0, 3)) {
    case 0:
      return `${owner.last} ${rand.pick(CRAFTS)}`;
    case 1:
      return `${rand.pick(STORE_ADJECTIVES)} ${rand.pick(STORE_NOUNS)} ${rand.pick(STORE_WORDS)}`;
    case 2:
      return `${owner.first}'s ${rand.pick(CRAFTS)}`;
    default:
      return `${rand.pick(STORE_WORDS)} ${rand.pick(STORE_NOUNS)}`;
  }
}

export function productName(rand: Random): string {
  return `${rand.pick(PRODUCT_ADJECTIVES)} ${rand.pick(PRODUCT_NOUNS)}`;
}

export function aboutText(rand: Random, store: string): string {
  return `${store}: ${rand.pick(ABOUT_OPENINGS)} ${rand.pick(ABOUT_CLOSINGS)}`;
}

/** "Velvet Heron Studio" -> "velvet-heron-studio" (ASCII letters and digits only). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function emailFor(person: PersonName, domain: string, suffix = ""): string {
  return `${slugify(person.first)}.${slugify(person.last)}${suffix}@${domain}`;
}

/** A price that looks like a shop's: $15–$450, ending in 00, 50 or 99 cents. */
export function productPriceCents(rand: Random): number {
  const dollars = rand.weighted([
    [rand.int(15, 40), 5],
    [rand.int(41, 120), 4],
    [rand.int(121, 450), 1],
  ] as const);
  return dollars * 100 - rand.pick([0, 1, 50] as const);
}
