// The shopping list (ui://sous/shopping-list), shown for get_shopping_list,
// add_to_shopping_list and update_shopping_items: the list's items by store
// section as sous answers them (Mealie's labels, in the order its app
// shows them), each with a tick box that checks or unchecks it in Mealie
// through update_shopping_items. The count to buy is the one each change
// answers; an item ticked here stays in place, greyed, so it can be
// unticked.

import { View, el, readAnswer, root, status } from "./common";

interface Item {
  item_id: string;
  item: string;
  checked?: boolean;
  for?: string[];
}
interface List {
  list_id: string;
  name?: string;
  sections: { section: string; items?: Item[] }[];
  checked?: number;
  recipes?: string[];
  hint?: string;
}
interface Overview {
  items: { list_id: string; name: string; to_buy: number; checked?: number }[];
  hint?: string;
}
interface Added {
  list_id: string;
  list_name?: string;
  added?: Item[];
  note?: string;
}
interface Updated {
  checked?: string[];
  unchecked?: string[];
  errors?: string[];
  list?: { list_id: string; name?: string; to_buy: number; checked: number };
}

const view = new View("shopping list");
let list: List | undefined;
let toBuy = 0;
let checkedCount = 0;
let highlight = new Set<string>();
const ticked = new Map<string, boolean>();

void view.start(async (res) => {
  const a = readAnswer<List & Overview & Added & Updated>(res);
  if (!a.ok) return status(a.error, "error");
  const v = a.value;
  highlight = new Set();
  if (Array.isArray(v.sections)) return show(v);
  if (v.added) {
    highlight = new Set(v.added.map((i) => i.item_id));
    return open(v.list_id);
  }
  if (v.list?.list_id) return open(v.list.list_id);
  if (Array.isArray(v.items)) return overview(v);
  status("Nothing to show.");
});

/** open reads a list through get_shopping_list and shows it. */
async function open(listID: string): Promise<void> {
  status("Loading the list…");
  const a = await view.call<List>("get_shopping_list", { list_id: listID });
  if (!a.ok) return status(a.error, "error");
  show(a.value);
}

/** overview shows the household's lists; one list alone is opened at once. */
function overview(o: Overview): void {
  if (o.items.length === 1) {
    void open(o.items[0].list_id);
    return;
  }
  if (!o.items.length) return status("The household has no shopping lists.");
  const lists = el("div", { class: "lists" });
  for (const l of o.items) {
    const b = el("button", { type: "button" }, el("span", {}, l.name), el("span", { class: "muted" }, `${l.to_buy} to buy`));
    b.addEventListener("click", () => void open(l.list_id));
    lists.append(b);
  }
  root().replaceChildren(el("h1", {}, "Shopping lists"), lists);
}

function show(l: List): void {
  list = l;
  ticked.clear();
  checkedCount = l.checked ?? 0;
  toBuy = l.sections.reduce((n, s) => n + (s.items?.length ?? 0), 0);
  render();
}

function render(): void {
  if (!list) return;
  const count = el("span", { class: "to-buy", "data-to-buy": String(toBuy) }, toBuy === 1 ? "1 to buy" : `${toBuy} to buy`);
  const head = el(
    "div",
    { class: "list-head", "data-list-id": list.list_id },
    el("h1", {}, list.name ?? "Shopping list"),
    el("span", {}, count, el("span", { class: "muted small", id: "checked-count" }, checkedText())),
  );
  const body: Node[] = [head];
  if (list.recipes?.length) body.push(el("p", { class: "muted small" }, `For ${list.recipes.join(", ")}`));
  if (!list.sections.length) body.push(el("p", { class: "muted" }, "Nothing left to buy."));
  for (const s of list.sections) {
    const ul = el("ul", { class: "items" });
    for (const it of s.items ?? []) ul.append(row(it));
    body.push(el("section", { class: "section" }, el("h3", {}, s.section), ul));
  }
  body.push(el("p", { class: "error small", id: "problem", role: "alert" }));
  root().replaceChildren(...body);
}

/** row is one item and its tick box. */
function row(it: Item): HTMLElement {
  const id = `item-${it.item_id}`;
  const isChecked = ticked.get(it.item_id) ?? !!it.checked;
  const box = el("input", { type: "checkbox", id, "data-item-id": it.item_id, checked: isChecked });
  const li = el(
    "li",
    { class: ["item", isChecked ? "checked" : "", highlight.has(it.item_id) ? "added" : ""].filter(Boolean).join(" ") },
    box,
    el("label", { for: id }, it.item, it.for?.length ? el("div", { class: "for" }, it.for.join(", ")) : undefined),
  );
  box.addEventListener("change", () => void tick(it, box, li));
  return li;
}

/** tick checks or unchecks an item in Mealie and keeps the count to what the change answers. */
async function tick(it: Item, box: HTMLInputElement, li: HTMLElement): Promise<void> {
  if (!list) return;
  const want = box.checked;
  box.disabled = true;
  li.classList.toggle("checked", want);
  const a = await view.call<Updated>("update_shopping_items", { list_id: list.list_id, [want ? "check" : "uncheck"]: [it.item_id] });
  box.disabled = false;
  const problem = document.getElementById("problem");
  const failed = !a.ok ? a.error : a.value.errors?.join("; ");
  if (failed) {
    box.checked = !want;
    li.classList.toggle("checked", !want);
    if (problem) problem.textContent = failed;
    return;
  }
  if (problem) problem.textContent = "";
  ticked.set(it.item_id, want);
  if (a.ok && a.value.list) {
    toBuy = a.value.list.to_buy;
    checkedCount = a.value.list.checked;
  } else {
    toBuy += want ? -1 : 1;
    checkedCount += want ? 1 : -1;
  }
  const checked = document.getElementById("checked-count");
  if (checked) checked.textContent = checkedText();
  const count = document.querySelector<HTMLElement>(".to-buy");
  if (count) {
    count.dataset.toBuy = String(toBuy);
    count.textContent = toBuy === 1 ? "1 to buy" : `${toBuy} to buy`;
  }
}

/** checkedText says how many items Mealie holds checked on the list. */
function checkedText(): string {
  return checkedCount ? ` · ${checkedCount} checked` : "";
}
