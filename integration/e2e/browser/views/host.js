// A minimal MCP Apps host, as a web host is built on ext-apps' app bridge:
// an MCP client (declaring io.modelcontextprotocol/ui) connected to sous
// over Streamable HTTP, and for each tool call the view its tool links,
// read with resources/read and shown in a sandbox proxy on another origin,
// which loads it under the CSP the resource declares (the spec's web-host
// shape). views.mjs bundles this file for the page and drives it.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";

const ui = "io.modelcontextprotocol/ui";
const mime = "text/html;profile=mcp-app";

// Colours a host sends in its context (a subset of the spec's variables),
// each as light-dark() so the theme picks one.
const variables = {
  "--color-background-primary": "light-dark(#ffffff, #1f1f1e)",
  "--color-text-primary": "light-dark(#191918, #f5f4ef)",
  "--font-sans": "system-ui, sans-serif",
};

let client;
let tools = [];

async function connect() {
  if (client) return;
  client = new Client({ name: "sous-views-test-host", version: "1" }, { capabilities: { extensions: { [ui]: { mimeTypes: [mime] } } } });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  tools = (await client.listTools()).tools;
}

/**
 * show calls a tool and shows its view: it resolves once the view has
 * initialized and been sent the tool's input and result.
 */
async function show(name, args, theme) {
  await connect();
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${name} links no view`);
  const read = await client.readResource({ uri });
  const content = read.contents[0];
  document.documentElement.style.colorScheme = theme;
  document.body.dataset.theme = theme;

  const old = document.getElementById("view");
  if (old) old.remove();
  const frame = document.createElement("iframe");
  frame.id = "view";
  frame.style.cssText = "width:720px;height:400px;border:1px solid #ccc;border-radius:12px;display:block";
  document.body.append(frame);

  const bridge = new AppBridge(
    client,
    { name: "sous-views-test-host", version: "1" },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} },
    {
      hostContext: {
        theme,
        styles: { variables },
        displayMode: "inline",
        availableDisplayModes: ["inline"],
        containerDimensions: { width: 720, maxHeight: 4000 },
        platform: "web",
        locale: "en-GB",
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        toolInfo: { tool },
      },
    },
  );
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.ceil(height) + 2}px`;
  };
  const shown = new Promise((resolve, reject) => {
    bridge.oninitialized = async () => {
      try {
        await bridge.sendToolInput({ arguments: args });
        const res = await client.callTool({ name, arguments: args });
        await bridge.sendToolResult(res);
        resolve(res);
      } catch (e) {
        reject(e);
      }
    };
  });
  bridge.onsandboxready = () => bridge.sendSandboxResourceReady({ html: content.text, csp: content._meta?.ui?.csp });
  // Connected before the sandbox loads: its first message is that it is ready.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.src = window.sandboxURL;
  const res = await shown;
  return { text: res.content?.[0]?.text ?? "", csp: content._meta?.ui?.csp ?? null };
}

/** toolsOf says which view each tool links, as this host saw tools/list. */
async function links() {
  await connect();
  return Object.fromEntries(tools.map((t) => [t.name, getToolUiResourceUri(t) ?? ""]));
}

window.sousHost = { show, links };
