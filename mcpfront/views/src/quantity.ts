// Amounts as a cook reads them, and an ingredient line of Mealie's drawn at
// a scale: the parts Mealie stores (quantity, unit, food, note) put together
// the way its app shows them, the quantity multiplied.

/** MealieIngredient is one line of a recipe as Mealie stores it. */
export interface MealieIngredient {
  title?: string;
  quantity?: number;
  unit?: { name?: string; pluralName?: string; abbreviation?: string; pluralAbbreviation?: string; useAbbreviation?: boolean; fraction?: boolean } | null;
  food?: { name?: string; pluralName?: string } | null;
  note?: string;
  display?: string;
  originalText?: string;
}

const fractions: [number, string][] = [
  [1 / 8, "⅛"], [1 / 4, "¼"], [1 / 3, "⅓"], [3 / 8, "⅜"], [1 / 2, "½"], [5 / 8, "⅝"], [2 / 3, "⅔"], [3 / 4, "¾"], [7 / 8, "⅞"],
];

/** formatQuantity writes 1.5 as "1½" and 0.333 as "⅓" where a kitchen fraction is that close, else at most two decimals. */
export function formatQuantity(q: number, useFractions = true): string {
  if (!Number.isFinite(q)) return "";
  const whole = Math.floor(q + 1e-9);
  const rest = q - whole;
  if (rest < 0.01) return String(whole);
  if (useFractions) {
    for (const [v, s] of fractions) {
      if (Math.abs(rest - v) < 0.01) return whole ? `${whole}${s}` : s;
    }
    if (rest > 0.99) return String(whole + 1);
  }
  return String(Math.round(q * 100) / 100);
}

/** ingredientLine is an ingredient at factor times its stored quantity: the amount (quantity and unit) and the rest. */
export function ingredientLine(ing: MealieIngredient, factor: number, amountsHidden: boolean): { amount: string; rest: string } {
  const text = ing.display || ing.note || ing.originalText || "";
  const q = typeof ing.quantity === "number" ? ing.quantity * factor : 0;
  if (amountsHidden || (!q && !ing.unit && !ing.food)) return { amount: "", rest: text };
  const plural = q > 1;
  const u = ing.unit;
  let unit = "";
  if (u) {
    unit = u.useAbbreviation && u.abbreviation ? (plural && u.pluralAbbreviation) || u.abbreviation : (plural && u.pluralName) || u.name || "";
  }
  const food = ing.food ? (plural && !u && ing.food.pluralName) || ing.food.name || "" : "";
  const amount = [q ? formatQuantity(q, u?.fraction !== false) : "", unit].filter(Boolean).join(" ");
  const rest = [food, ing.note].filter(Boolean).join(" ");
  return { amount, rest: rest || (amount ? "" : text) };
}
