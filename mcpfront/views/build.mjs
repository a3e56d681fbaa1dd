// Builds dist/<view>.html: one self-contained HTML file per view, its
// script (the view on ext-apps' App, with every dependency) and stylesheet
// inlined, nothing loaded from anywhere else. `make generate` runs it;
// mcpfront embeds the output (views.go) and check-generated holds it.
// The type check runs first, so a build never ships a view tsc refuses.

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const views = [
  { name: "plan", title: "Meal plan" },
  { name: "shopping", title: "Shopping list" },
  { name: "recipe", title: "Recipe card" },
];

execFileSync(join(here, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", here], { stdio: "inherit" });

const css = (
  await esbuild.transform(readFileSync(join(here, "src", "style.css"), "utf8"), { loader: "css", minify: true, charset: "utf8" })
).code.trim();

// zod, which the MCP SDK validates messages with, exports every language's
// error messages as z.locales; a namespace export cannot be tree-shaken,
// and the 60-odd languages would be half of each bundle. Nothing in a view
// or the SDK picks a language (zod configures English itself), so the
// namespace is given English alone.
const englishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(join("node_modules", "zod")) ? { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-locales" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), "en.js"))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

mkdirSync(join(here, "dist"), { recursive: true });
for (const v of views) {
  const out = await esbuild.build({
    entryPoints: [join(here, "src", `${v.name}.ts`)],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    charset: "utf8",
    legalComments: "none",
    logLevel: "warning",
    plugins: [englishOnly],
  });
  // A "</script" inside the code would end the element early.
  const js = out.outputFiles[0].text.trim().replaceAll("</script", "<\\/script");
  const page = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="sous-mealie-origin" content="">
<title>${v.title}</title>
<style>${css}</style>
</head>
<body>
<main id="app"><p class="status">Waiting for the answer…</p></main>
<script>${js}</script>
</body>
</html>
`;
  writeFileSync(join(here, "dist", `${v.name}.html`), page);
  console.log(`dist/${v.name}.html ${page.length} bytes`);
}
