// The recipe card (ui://sous/recipe), shown for get_recipe: image, times,
// servings with a scale control, ingredients, steps, and "we made this",
// which calls mark_recipe_made. get_recipe's curated answer is drawn at
// once; the amounts to scale and the image come from the same recipe as
// Mealie stores it (get_recipe full=true, called through the host), since
// the curated lines are text.

import { View, el, imageURL, readAnswer, root, status } from "./common";
import { formatQuantity, ingredientLine, type MealieIngredient } from "./quantity";

/** Curated is get_recipe's compact answer. */
interface Curated {
  slug: string;
  name?: string;
  description?: string;
  yield?: string;
  prep_time?: string;
  cook_time?: string;
  total_time?: string;
  ingredients?: string[];
  instructions?: string[];
  notes?: string[];
  last_made?: string;
  amounts_hidden?: string;
}

/** Stored is the part of Mealie's own recipe the card reads. */
interface Stored {
  id?: string;
  slug?: string;
  name?: string;
  image?: unknown;
  recipeServings?: number;
  recipeYieldQuantity?: number;
  recipeYield?: string;
  recipeIngredient?: MealieIngredient[];
  settings?: { disableAmount?: boolean };
}

const view = new View("recipe card");
let curated: Curated | undefined;
let stored: Stored | undefined;
let base = 0; // the servings Mealie stores, or 0 when it says none
let factor = 1;

void view.start(async (res) => {
  const a = readAnswer<Curated & Stored>(res);
  if (!a.ok) return status(a.error, "error");
  // get_recipe full=true answers Mealie's own recipe; draw it as such.
  if (a.value.recipeIngredient) {
    stored = a.value;
    curated = { slug: a.value.slug ?? "", name: a.value.name };
  } else {
    curated = a.value;
  }
  factor = 1;
  render();
  if (!stored && curated.slug) {
    const full = await view.call<Stored>("get_recipe", { slug: curated.slug, full: true });
    if (full.ok) {
      stored = full.value;
      render();
    }
  }
});

function render(): void {
  if (!curated) return;
  base = stored?.recipeServings || stored?.recipeYieldQuantity || leadingNumber(curated.yield ?? stored?.recipeYield) || 0;
  const img = imageURL(stored?.id, stored?.image);
  const times = [
    ["Prep", curated.prep_time],
    ["Cook", curated.cook_time],
    ["Total", curated.total_time],
  ].filter(([, v]) => v);
  const head = el(
    "div",
    { class: "card-head" },
    el("h1", {}, curated.name ?? curated.slug),
    curated.description ? el("p", { class: "muted" }, curated.description) : undefined,
    times.length ? el("div", { class: "times" }, ...times.map(([k, v]) => el("span", { class: "pill" }, `${k} ${v}`))) : undefined,
    curated.yield ? el("p", { class: "small muted" }, `Makes ${curated.yield}`) : undefined,
    scaleControl(),
  );
  const top = el("div", { class: "card-top" }, img ? heroImage(img, curated.name ?? "") : undefined, head);
  const columns = el(
    "div",
    { class: "columns" },
    el("section", {}, el("h2", {}, "Ingredients"), ingredients()),
    el("section", {}, el("h2", {}, "Steps"), steps()),
  );
  root().replaceChildren(top, columns, notes(), madeRow());
}

function heroImage(src: string, alt: string): HTMLImageElement {
  const img = el("img", { class: "hero", src, alt });
  img.addEventListener("error", () => img.remove());
  return img;
}

/** scaleControl is the servings stepper and the ½×, 1×, 2×, 3× buttons; it scales only amounts Mealie stores as numbers. */
function scaleControl(): HTMLElement | undefined {
  if (!stored?.recipeIngredient?.some((i) => typeof i.quantity === "number" && i.quantity > 0) || stored.settings?.disableAmount) {
    return undefined;
  }
  const set = (f: number) => {
    factor = f;
    render();
  };
  const label = base ? `${formatQuantity(base * factor)} servings` : `× ${formatQuantity(factor)}`;
  const step = base ? 1 / base : 0.5;
  return el(
    "div",
    { class: "scale", role: "group", "aria-label": "Scale the recipe" },
    button("−", () => set(Math.max(step, factor - step)), { "aria-label": "Fewer servings", "data-scale": "down" }),
    el("span", { class: "servings", "data-servings": "" }, label),
    button("+", () => set(factor + step), { "aria-label": "More servings", "data-scale": "up" }),
    ...[0.5, 1, 2, 3].map((f) => button(`${formatQuantity(f)}×`, () => set(f), { "aria-pressed": String(factor === f), "data-scale": String(f) })),
  );
}

function button(text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el("button", { type: "button", ...attrs }, text);
  b.addEventListener("click", onClick);
  return b;
}

/** ingredients lists Mealie's lines scaled by factor, or the curated lines until those arrive. */
function ingredients(): HTMLElement {
  const list = el("ul", { class: "ingredients" });
  if (stored?.recipeIngredient) {
    for (const ing of stored.recipeIngredient) {
      if (ing.title) list.append(el("li", {}, el("h3", {}, ing.title)));
      const line = ingredientLine(ing, factor, !!stored.settings?.disableAmount);
      list.append(el("li", { "data-ingredient": "" }, line.amount ? el("span", { class: "amount" }, line.amount) : undefined, line.amount ? " " : undefined, line.rest));
    }
    return list;
  }
  for (const line of curated?.ingredients ?? []) {
    const m = /^\[(.+?)\] (.*)$/.exec(line);
    if (m) list.append(el("li", {}, el("h3", {}, m[1])));
    list.append(el("li", { "data-ingredient": "" }, m ? m[2] : line));
  }
  return list;
}

function steps(): HTMLElement {
  const ol = el("ol", { class: "steps" });
  for (const s of curated?.instructions ?? []) ol.append(el("li", {}, s));
  if (!ol.children.length) return el("p", { class: "muted" }, "No steps written.");
  return ol;
}

function notes(): HTMLElement | string {
  if (!curated?.notes?.length) return "";
  return el("section", {}, el("h2", {}, "Notes"), ...curated.notes.map((n) => el("p", {}, n)));
}

/** madeRow is "we made this": it records today's cook with mark_recipe_made and shows the last-made date Mealie stores after it. */
function madeRow(): HTMLElement {
  const last = el("span", { class: "muted small", "data-last-made": curated?.last_made ?? "" }, curated?.last_made ? `Last made ${curated.last_made}` : "Not made yet");
  const btn = el("button", { type: "button", class: "primary", "data-made": "" }, "We made this");
  btn.addEventListener("click", async () => {
    if (!curated) return;
    btn.disabled = true;
    btn.textContent = "Saving…";
    const a = await view.call<{ last_made?: string; note?: string }>("mark_recipe_made", { slug: curated.slug });
    if (a.ok) {
      curated.last_made = a.value.last_made;
      btn.textContent = "Marked as made";
      last.textContent = a.value.note ?? `Last made ${a.value.last_made}`;
      last.className = "ok small";
      last.dataset.lastMade = a.value.last_made ?? "";
    } else {
      btn.disabled = false;
      btn.textContent = "We made this";
      last.textContent = a.error;
      last.className = "error small";
    }
  });
  return el("div", { class: "made" }, btn, last);
}

/** leadingNumber reads "6 servings" as 6. */
function leadingNumber(s: string | undefined): number {
  const m = /^\s*(\d+(?:\.\d+)?)/.exec(s ?? "");
  return m ? Number(m[1]) : 0;
}
