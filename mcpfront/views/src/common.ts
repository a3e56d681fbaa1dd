// What the three views share: connecting to the host through ext-apps' App,
// following the host's theme, reading the compact JSON a tool answers, and
// calling tools through the host. A view reads exactly the text the model
// reads (sous sends no structuredContent), so what it shows is what sous
// answered.

import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/client";

/** A tool's answer: its JSON when it succeeded, else the sentence it failed with. */
export type Answer<T> = { ok: true; value: T } | { ok: false; error: string };

/** readAnswer reads a tool result's one text block. */
export function readAnswer<T>(res: CallToolResult | undefined): Answer<T> {
  const block = res?.content?.find((c) => c.type === "text");
  const text = block && "text" in block ? String(block.text) : "";
  if (!res || res.isError) {
    return { ok: false, error: text || "the tool failed without saying why" };
  }
  try {
    return { ok: true, value: JSON.parse(text) as T };
  } catch {
    return { ok: false, error: text || "the tool answered nothing" };
  }
}

/** View is one connected view: its App and how it calls tools. */
export class View {
  readonly app: App;
  /** The tool call's arguments, once the host has sent them. */
  args: Record<string, unknown> = {};

  constructor(name: string) {
    this.app = new App({ name: `sous ${name}`, version: "1" }, {}, { autoResize: true });
    this.app.onhostcontextchanged = (ctx) => applyContext(ctx);
    this.app.ontoolinput = (p) => {
      this.args = (p.arguments ?? {}) as Record<string, unknown>;
    };
  }

  /** start connects to the host; handlers must be set before, since the result may follow at once. */
  async start(onResult: (res: CallToolResult) => void): Promise<void> {
    this.app.ontoolresult = (res) => onResult(res as CallToolResult);
    this.app.ontoolcancelled = () => status("The call was cancelled.");
    await this.app.connect();
    applyContext(this.app.getHostContext());
  }

  /** call calls a sous tool through the host and reads its answer. */
  async call<T>(name: string, args: Record<string, unknown>): Promise<Answer<T>> {
    try {
      return readAnswer<T>((await this.app.callServerTool({ name, arguments: args })) as CallToolResult);
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** toolName is the name of the tool whose result this view shows, when the host says. */
  toolName(): string | undefined {
    return this.app.getHostContext()?.toolInfo?.tool?.name;
  }
}

/** applyContext follows the host's theme, style variables and fonts. */
function applyContext(ctx: McpUiHostContext | undefined): void {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
}

/** mealieOrigin is where the server said Mealie's images are, or "" when it did not. */
export function mealieOrigin(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="sous-mealie-origin"]')?.content ?? "";
}

/**
 * imageURL is the address of a recipe's image in Mealie (its media route
 * needs no token), or "" without an origin or an image.
 */
export function imageURL(recipeID: string | undefined, imageKey: unknown, size: "min-original" | "tiny-original" = "min-original"): string {
  const origin = mealieOrigin();
  if (!origin || !recipeID || !imageKey) return "";
  return `${origin}/api/media/recipes/${encodeURIComponent(recipeID)}/images/${size}.webp?version=${encodeURIComponent(String(imageKey))}`;
}

/** el builds an element with attributes and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: (Node | string | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (v === true) e.setAttribute(k, "");
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === undefined || c === false) continue;
    e.append(c);
  }
  return e;
}

/** root is the element each view renders into. */
export function root(): HTMLElement {
  return document.getElementById("app")!;
}

/** status shows one line in place of the view (loading, an error). */
export function status(text: string, kind: "info" | "error" = "info"): void {
  root().replaceChildren(el("p", { class: `status ${kind}`, role: kind === "error" ? "alert" : "status" }, text));
}

/** today is the view's local date as YYYY-MM-DD. */
export function today(): string {
  return isoDate(new Date());
}

/** isoDate formats a local date as YYYY-MM-DD. */
export function isoDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** parseDate reads YYYY-MM-DD as a local date at noon (safe across DST). */
export function parseDate(s: string): Date {
  const [y, m, d] = s.split("-").map(Number);
  return new Date(y, (m || 1) - 1, d || 1, 12);
}

/** addDays returns the date n days after s. */
export function addDays(s: string, n: number): string {
  const d = parseDate(s);
  d.setDate(d.getDate() + n);
  return isoDate(d);
}

/** mapLimit runs f over items, at most n at a time. */
export async function mapLimit<T, R>(items: T[], n: number, f: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}
