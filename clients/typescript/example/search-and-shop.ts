// Search sous's recipes, then put the first match's ingredients on the
// shopping list: the Connect API from a TypeScript app.
//
//   SOUS_URL=http://127.0.0.1:8080 SOUS_SERVICE_TOKEN=... node example/dist/search-and-shop.js chili
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { RecipesService } from "@souskitchen/sous-client/recipes/v1";
import { MealPlanService } from "@souskitchen/sous-client/mealplan/v1";

const baseUrl = process.env.SOUS_URL ?? "http://127.0.0.1:8080";
const token = process.env.SOUS_SERVICE_TOKEN ?? "";
const query = process.argv[2] ?? "chili";

// Every RPC but gRPC health needs the service token.
const bearer: Interceptor = (next) => (req) => {
  if (token) req.header.set("Authorization", `Bearer ${token}`);
  return next(req);
};
const transport = createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors: [bearer] });
const recipes = createClient(RecipesService, transport);
const mealplan = createClient(MealPlanService, transport);

try {
  const found = await recipes.searchRecipes({ query, limit: 5 });
  if (found.items.length === 0) {
    console.log(`no recipe matches "${query}"`);
    process.exit(1);
  }
  for (const r of found.items) console.log(`found ${r.slug}: ${r.name}`);
  const slug = found.items[0].slug;
  // The household's only list; skip what the pantry has in stock (the default).
  const res = await mealplan.addToShoppingList({ recipeSlugs: [slug] });
  for (const item of res.added) console.log(`added ${item.display}`);
  for (const m of res.merged) console.log(`merged ${m.name} into ${m.item?.display}`);
  for (const s of res.skippedInStock) console.log(`skipped ${s.name} (${s.pantryItem} in the ${s.location})`);
  // A recipe already on the list adds nothing (ask again with addAgain).
  for (const slug of res.alreadyOnList) console.log(`already on the list: ${slug}`);
} catch (err) {
  // Branch on the code; show the sentence.
  const e = ConnectError.from(err);
  console.error(`sous refused (${Code[e.code]}): ${e.rawMessage}`);
  process.exit(2);
}
