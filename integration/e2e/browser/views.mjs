// Drives sous's MCP Apps views in headless Chromium through a host page
// built on ext-apps' app bridge (views/host.js), connected to a running
// sous over Streamable HTTP, as a web host is:
//
//   node views.mjs '<config JSON>'
//
// config: {mcpURL, shots, recipe, list, planStart, planEnd}. It serves the
// host page, the sandbox proxy (on another origin, as the spec asks) and a
// same-origin pass-through to mcpURL on a loopback port, then shows the
// recipe card (scales it to 2×, presses "we made this"), the shopping list
// (ticks an item, unticks it) and the plan, saving a screenshot of each
// into config.shots. At each write it prints a JSON line {"step": ...} and
// waits for a line on stdin, so the Go test (integration/e2e/views_test.go)
// reads Mealie back before it goes on; it ends with one {"report": ...}
// line. Every request the views make is recorded: one to any origin but
// the host's, the sandbox's and Mealie's is reported as foreign.
import { chromium } from "playwright-core";
import * as esbuild from "esbuild";
import { createServer, request as httpRequest } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const cfg = JSON.parse(process.argv[2] ?? "{}");
const stepTimeout = 20000;

const hostJS = (
  await esbuild.build({ entryPoints: [join(here, "views", "host.js")], bundle: true, write: false, format: "iife", platform: "browser", target: "es2022", logLevel: "warning" })
).outputFiles[0].text.replaceAll("</script", "<\\/script");
const sandboxHTML = readFileSync(join(here, "views", "sandbox.html"), "utf8");
const mcp = new URL(cfg.mcpURL);

// The host page and the sandbox on one loopback port; the sandbox is
// reached under another host name (mapped to 127.0.0.1 below), so its
// origin differs from the page's.
const server = createServer((req, res) => {
  if (req.url === "/" || req.url === "/index.html") {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>views host</title></head><body style="margin:16px;font-family:sans-serif"><script>window.sandboxURL=${JSON.stringify(sandboxURL)};</script><script>${hostJS}</script></body></html>`);
    return;
  }
  if (req.url === "/favicon.ico") {
    res.writeHead(204);
    res.end();
    return;
  }
  if (req.url === "/sandbox.html") {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(sandboxHTML);
    return;
  }
  if (req.url === "/mcp") {
    const headers = { ...req.headers, host: mcp.host };
    delete headers.origin;
    delete headers.referer;
    const up = httpRequest({ host: mcp.hostname, port: mcp.port, path: mcp.pathname + mcp.search, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", (e) => {
      res.writeHead(502);
      res.end(String(e));
    });
    req.pipe(up);
    return;
  }
  res.writeHead(404);
  res.end();
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const port = server.address().port;
const hostOrigin = `http://127.0.0.1:${port}`;
const sandboxOrigin = `http://sandbox.test:${port}`;
const sandboxURL = `${sandboxOrigin}/sandbox.html`;

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
/** checkpoint says what was just written and waits for the test to have read it back. */
async function checkpoint(step) {
  console.log(JSON.stringify(step));
  const next = await lines.next();
  if (next.done || next.value.trim() !== "ok") throw new Error(`the test answered ${JSON.stringify(next.value)} at ${step.step}`);
}

const profile = mkdtempSync(join(tmpdir(), "sous-chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-background-networking", "--disable-gpu", "--no-first-run", "--disable-component-update", "--disable-sync", `--host-resolver-rules=MAP sandbox.test 127.0.0.1`],
  viewport: { width: 760, height: 900 },
  deviceScaleFactor: 1,
});
const report = { foreign: [], consoleErrors: [], mealieImages: 0 };
const allowed = new Set([hostOrigin, sandboxOrigin, cfg.mealieOrigin].filter(Boolean));
let code = 0;
try {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on("console", (m) => {
    if (process.env.DEBUG_VIEWS) console.error(`[page ${m.type()}] ${m.text()}`);
    // The MCP client's GET for a standalone stream is answered 405, as the
    // spec lets a server without one answer; the browser logs it.
    if (m.type() === "error" && !(m.location()?.url ?? "").endsWith("/mcp")) report.consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => report.consoleErrors.push(String(e)));
  page.on("request", (r) => {
    const u = r.url();
    if (u.startsWith("data:") || u.startsWith("about:")) return;
    const origin = new URL(u).origin;
    if (!allowed.has(origin)) report.foreign.push(u);
    else if (origin === cfg.mealieOrigin) report.mealieImages++;
  });
  await page.goto(hostOrigin + "/", { waitUntil: "load" });
  report.links = await page.evaluate(() => window.sousHost.links());

  /** show calls a tool in the host and returns the view's frame once it has the result. */
  const show = async (name, args, theme = "light") => {
    const shown = await Promise.race([
      page.evaluate(([n, a, t]) => window.sousHost.show(n, a, t), [name, args, theme]),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`the host did not show ${name}'s view in ${stepTimeout} ms`)), stepTimeout)),
    ]);
    const frame = await waitForFrame();
    return { shown, frame };
  };
  const waitForFrame = async () => {
    for (let i = 0; i < 100; i++) {
      const f = page.frames().find((f) => f.url() === "about:srcdoc");
      if (f) return f;
      await page.waitForTimeout(50);
    }
    throw new Error("the view's frame never loaded");
  };
  const imagesLoaded = (frame) => frame.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: stepTimeout });
  const shot = async (name) => {
    await page.waitForTimeout(300); // the size-changed notification settles the frame's height
    await page.locator("#view").screenshot({ path: join(cfg.shots, name) });
  };

  // The recipe card: draw, scale to 2×, we made this.
  {
    const { shown, frame } = await show("get_recipe", { slug: cfg.recipe });
    report.recipeAnswer = shown.text;
    report.csp = shown.csp;
    await frame.locator('[data-scale="2"]').waitFor({ timeout: stepTimeout });
    await imagesLoaded(frame);
    report.heroImage = await frame.locator("img.hero").count();
    report.servings = [await frame.locator("[data-servings]").textContent()];
    report.amounts = [await frame.locator("[data-ingredient] .amount").allTextContents()];
    await shot("view-recipe.png");
    await frame.locator('[data-scale="2"]').click();
    report.servings.push(await frame.locator("[data-servings]").textContent());
    report.amounts.push(await frame.locator("[data-ingredient] .amount").allTextContents());
    await frame.locator('[data-scale="1"]').click();
    await frame.locator("[data-made]").click();
    await frame.locator("[data-made]", { hasText: "Marked as made" }).waitFor({ timeout: stepTimeout });
    report.lastMade = await frame.locator("[data-last-made]").getAttribute("data-last-made");
    await checkpoint({ step: "made", slug: cfg.recipe, lastMade: report.lastMade });
  }
  // The same card in the dark, as the host's theme says.
  {
    const { frame } = await show("get_recipe", { slug: cfg.recipe }, "dark");
    await frame.locator('[data-scale="2"]').waitFor({ timeout: stepTimeout });
    await imagesLoaded(frame);
    report.darkBackground = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await shot("view-recipe-dark.png");
  }
  // The shopping list: tick an item, untick it.
  {
    const { frame } = await show("get_shopping_list", cfg.list ? { list_id: cfg.list } : {});
    const box = frame.locator(".item input:not(:checked)").first();
    await box.waitFor({ timeout: stepTimeout });
    const item = await box.getAttribute("data-item-id");
    const toBuy = async () => Number(await frame.locator("[data-to-buy]").getAttribute("data-to-buy"));
    report.item = item;
    report.listID = await frame.locator("[data-list-id]").getAttribute("data-list-id");
    report.toBuy = [await toBuy()];
    const mine = frame.locator(`input[data-item-id="${item}"]`);
    await mine.click();
    await frame.waitForFunction((id) => {
      const b = document.querySelector(`input[data-item-id="${id}"]`);
      return b && !b.disabled && b.checked;
    }, item, { timeout: stepTimeout });
    report.toBuy.push(await toBuy());
    report.tickedGreyed = await frame.locator(".item.checked").count();
    report.problem = await frame.locator("#problem").textContent();
    await shot("view-shopping.png");
    await checkpoint({ step: "checked", item });
    await mine.click();
    await frame.waitForFunction((id) => {
      const b = document.querySelector(`input[data-item-id="${id}"]`);
      return b && !b.disabled && !b.checked;
    }, item, { timeout: stepTimeout });
    report.toBuy.push(await toBuy());
    await checkpoint({ step: "unchecked", item });
  }
  // The list as add_to_shopping_list leaves it: the view reads the whole
  // list back and marks the row added.
  {
    const { shown, frame } = await show("add_to_shopping_list", { list_id: report.listID ?? cfg.list, items: ["1 lemon"], skip_in_stock: false });
    report.addAnswer = shown.text;
    await frame.locator(".item.added").first().waitFor({ timeout: stepTimeout });
    report.addedRows = await frame.locator(".item.added label").allTextContents();
    report.rowsAfterAdd = await frame.locator(".item").count();
  }
  // Today, as get_todays_meals answers it.
  {
    const { frame } = await show("get_todays_meals", {});
    await frame.locator("table.plan").waitFor({ timeout: stepTimeout });
    report.todayRows = await frame.locator("table.plan tbody tr").count();
    report.todayMarked = await frame.locator("tr.today [data-today]").count();
  }
  // The plan after add_meal_plan_entry: the entry's week, the entry marked.
  {
    const { shown, frame } = await show("add_meal_plan_entry", { date: cfg.planStart, entry_type: "lunch", title: "Soup and bread" });
    report.entryAnswer = shown.text;
    const id = JSON.parse(shown.text).entry_id;
    await frame.locator(`.meal.changed[data-entry-id="${id}"]`).waitFor({ timeout: stepTimeout });
    report.weekRows = await frame.locator("table.plan tbody tr").count();
    await checkpoint({ step: "planned", entry: id });
  }
  // The plan.
  {
    const { frame } = await show("get_meal_plan", { start_date: cfg.planStart, end_date: cfg.planEnd });
    await frame.locator("table.plan").waitFor({ timeout: stepTimeout });
    if (cfg.mealieOrigin) await frame.locator("img.thumb").first().waitFor({ timeout: stepTimeout }).catch(() => {});
    await imagesLoaded(frame);
    report.planRows = await frame.locator("table.plan tbody tr").count();
    report.planToday = await frame.locator("tr.today [data-today]").count();
    report.planEmpty = await frame.locator("[data-empty]").count();
    report.planMeals = await frame.locator("[data-entry-id]").count();
    report.planThumbs = await frame.locator("img.thumb").count();
    await shot("view-plan.png");
  }
} catch (e) {
  code = 1;
  report.error = String(e && e.stack ? e.stack : e);
} finally {
  console.log(JSON.stringify({ report }));
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
