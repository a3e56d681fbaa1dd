// Answers sous's OAuth consent page in headless Chromium, as the owner would.
//
//   node consent.mjs <authorize URL> <callback prefix> <approve|deny> <passphrase> [screenshot.png]
//
// It opens the authorization URL in a fresh profile, saves a screenshot of
// the consent page, types the passphrase and clicks Approve (or Deny), then
// waits at most 5 s for the browser to arrive at the callback. It prints one
// JSON line: the callback URL reached, the page's console errors, and the
// client's name and redirect host as the page showed them. The Go test in
// integration/e2e/oauth checks what the callback listener received.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [authURL, callbackPrefix, action, passphrase, screenshot] = process.argv.slice(2);
if (!authURL || !callbackPrefix || !['approve', 'deny'].includes(action)) {
  console.error('usage: node consent.mjs <authorize URL> <callback prefix> <approve|deny> <passphrase> [screenshot.png]');
  process.exit(2);
}

// Seconds the redirect after the click may take (mcp-cases.md M16).
const callbackTimeoutMs = 5000;

const profile = mkdtempSync(join(tmpdir(), 'sous-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless', '--no-sandbox', '--disable-background-networking', '--disable-gpu',
    '--no-first-run', '--disable-component-update', '--disable-sync',
  ],
  viewport: { width: 800, height: 720 },
});
let code = 0;
try {
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  await page.goto(authURL, { waitUntil: 'load', timeout: 15000 });
  await page.locator('#approve').waitFor({ timeout: 10000 });
  const clientName = (await page.locator('#client-name').textContent())?.trim();
  const redirectHost = (await page.locator('#redirect-host').textContent())?.trim();
  if (action === 'approve') {
    await page.fill('#passphrase', passphrase ?? '');
  }
  if (screenshot) {
    await page.screenshot({ path: screenshot, fullPage: true });
  }
  const arrived = page.waitForURL((u) => u.href.startsWith(callbackPrefix), { timeout: callbackTimeoutMs, waitUntil: 'commit' });
  await page.click(action === 'approve' ? '#approve' : '#deny');
  let reached = '';
  try {
    await arrived;
    reached = page.url();
  } catch {
    code = 1;
  }
  console.log(JSON.stringify({ reached, consoleErrors, clientName, redirectHost, stayedAt: reached ? '' : page.url() }));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(code);
