// The plan (ui://sous/plan), shown for get_meal_plan, get_todays_meals,
// random_meal_plan, add_meal_plan_entry and update_meal_plan_entry: days ×
// meals, each planned recipe with its image, today marked, every empty
// breakfast, lunch and dinner slot shown. A write's view reads the days it
// touched back through get_meal_plan (the week of one entry), so the plan
// is seen as Mealie now holds it, the entries written marked.

import { View, addDays, el, imageURL, mapLimit, parseDate, readAnswer, root, status, today } from "./common";

interface Entry {
  entry_id: string;
  date?: string;
  type?: string;
  recipe_slug?: string;
  recipe?: string;
  title?: string;
  note?: string;
}
interface PlanAnswer {
  items?: (Entry | { date: string; entry?: Entry; not_planned?: string })[];
  date?: string;
  hint?: string;
  planned?: number;
  entry_id?: string;
}

/** meals is a day's order; the first three always have a slot. */
const meals = ["breakfast", "lunch", "dinner", "side", "snack", "drink", "dessert"];
const alwaysShown = 3;
/** maxDays bounds a range drawn day by day. */
const maxDays = 31;

const view = new View("meal plan");
let todayDate = today();
let entries: Entry[] = [];
let days: string[] = [];
let changed = new Set<string>();
let notPlanned = new Map<string, string>();
const images = new Map<string, string>();

void view.start(async (res) => {
  const a = readAnswer<PlanAnswer & Entry>(res);
  if (!a.ok) return status(a.error, "error");
  const v = a.value;
  changed = new Set();
  notPlanned = new Map();
  todayDate = today();
  const args = view.args as { start_date?: string; end_date?: string; date?: string };
  if (v.entry_id) {
    // One entry written: its week, as Mealie now holds it.
    changed.add(v.entry_id);
    const start = monday(v.date ?? args.date ?? todayDate);
    return load(start, addDays(start, 6));
  }
  if (typeof v.planned === "number") {
    // random_meal_plan: the days it filled, read back whole.
    const dated = (v.items ?? []) as { date: string; entry?: Entry; not_planned?: string }[];
    for (const d of dated) {
      if (d.entry) changed.add(d.entry.entry_id);
      if (d.not_planned) notPlanned.set(d.date, d.not_planned);
    }
    const dates = dated.map((d) => d.date).sort();
    return load(args.start_date ?? dates[0] ?? todayDate, args.end_date ?? dates[dates.length - 1] ?? todayDate);
  }
  const items = (v.items ?? []) as Entry[];
  if (v.date) {
    // get_todays_meals: the day the server calls today.
    todayDate = v.date;
    return show(items.map((e) => ({ ...e, date: e.date ?? v.date })), v.date, v.date);
  }
  const dates = items.map((e) => e.date ?? "").filter(Boolean).sort();
  show(items, args.start_date ?? dates[0] ?? todayDate, args.end_date ?? dates[dates.length - 1] ?? todayDate);
});

/** monday is the Monday of date's week. */
function monday(date: string): string {
  const d = parseDate(date);
  return addDays(date, -((d.getDay() + 6) % 7));
}

async function load(start: string, end: string): Promise<void> {
  status("Loading the plan…");
  const a = await view.call<PlanAnswer>("get_meal_plan", { start_date: start, end_date: end });
  if (!a.ok) return status(a.error, "error");
  show((a.value.items ?? []) as Entry[], start, end);
}

function show(items: Entry[], start: string, end: string): void {
  entries = items;
  days = [];
  for (let d = start; d <= end && days.length < maxDays; d = addDays(d, 1)) days.push(d);
  render();
  void loadImages();
}

function render(): void {
  const types = meals.filter((m, i) => i < alwaysShown || entries.some((e) => e.type === m));
  const head = el("tr", {}, el("th", {}, ""), ...types.map((t) => el("th", {}, cap(t))));
  const rows = days.map((d) => {
    const isToday = d === todayDate;
    const date = parseDate(d);
    const dayCell = el(
      "td",
      {},
      el("div", { class: "day-name" }, date.toLocaleDateString(undefined, { weekday: "short" })),
      el("div", { class: "day-date" }, date.toLocaleDateString(undefined, { day: "numeric", month: "short" })),
      isToday ? el("span", { class: "pill today", "data-today": "" }, "Today") : undefined,
    );
    const cells = types.map((t) => {
      const here = entries.filter((e) => e.date === d && e.type === t);
      if (!here.length) {
        const why = t === "dinner" ? notPlanned.get(d) : undefined;
        return el("td", {}, el("span", { class: "empty-slot", "data-empty": "" }, why ?? "empty"));
      }
      return el("td", {}, ...here.map(meal));
    });
    return el("tr", { class: isToday ? "today" : "", "data-date": d }, dayCell, ...cells);
  });
  const title = days.length === 1 ? (days[0] === todayDate ? "Today" : parseDate(days[0]).toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" })) : range();
  root().replaceChildren(el("h1", {}, title), el("table", { class: "plan" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

function range(): string {
  const f = (d: string) => parseDate(d).toLocaleDateString(undefined, { day: "numeric", month: "short" });
  return `${f(days[0])} – ${f(days[days.length - 1])}`;
}

/** meal is one planned entry: a recipe with its image, or a titled meal. */
function meal(e: Entry): HTMLElement {
  const name = e.recipe ?? e.title ?? e.recipe_slug ?? "";
  const src = e.recipe_slug ? images.get(e.recipe_slug) : undefined;
  const thumb = src ? el("img", { class: "thumb", src, alt: "" }) : el("span", { class: "thumb none", "aria-hidden": "true" }, e.recipe_slug ? "🍽" : "✎");
  if (thumb instanceof HTMLImageElement) thumb.addEventListener("error", () => thumb.replaceWith(el("span", { class: "thumb none" }, "🍽")));
  return el(
    "div",
    { class: changed.has(e.entry_id) ? "meal changed" : "meal", "data-entry-id": e.entry_id, "data-recipe": e.recipe_slug },
    thumb,
    el("div", {}, el("div", { class: "meal-name" }, name), e.note ? el("div", { class: "meal-note" }, e.note) : undefined),
  );
}

/** loadImages finds each planned recipe's image (its id and image key, from get_recipe full=true) and redraws with them. */
async function loadImages(): Promise<void> {
  if (!imageURL("x", "x")) return; // no Mealie origin: no images to show
  const slugs = [...new Set(entries.map((e) => e.recipe_slug).filter((s): s is string => !!s && !images.has(s)))];
  if (!slugs.length) return;
  await mapLimit(slugs, 4, async (slug) => {
    const a = await view.call<{ id?: string; image?: unknown }>("get_recipe", { slug, full: true });
    if (a.ok) {
      const src = imageURL(a.value.id, a.value.image, "min-original");
      if (src) images.set(slug, src);
    }
  });
  render();
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

