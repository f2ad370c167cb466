// The official TypeScript SDK client against `paracore mcp --model duplex` (stdio, or Streamable
// HTTP when URL is set), run by tests/mcp/test_typescript_client.py: every tool's schema compiled
// with Ajv and a minimal call validated, at first and with every toolset on; use_toolset and
// notifications/tools/list_changed; a write whose approval is answered after APPROVAL_S seconds,
// with a request timeout of TIMEOUT_MS that progress notifications reset. Prints one JSON line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";

const APPROVAL_S = Number(process.env.APPROVAL_S || "0");
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS || "30000");
const transport = process.env.URL ? new StreamableHTTPClientTransport(new URL(process.env.URL)) : new StdioClientTransport({
  command: process.env.PYTHON, args: ["-m", "paracore", "mcp", "--model", "duplex", ...JSON.parse(process.env.SERVER_ARGS || "[]")],
  env: process.env, stderr: "ignore" });
const client = new Client({ name: "ts-sdk-check", version: "1.0" }, { capabilities: { elicitation: {} } });
let listChanged = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, async () => { listChanged += 1; });
client.setRequestHandler(ElicitRequestSchema, async () => {
  await new Promise((r) => setTimeout(r, APPROVAL_S * 1000));
  return { action: "accept", content: { approve: true } };
});
await client.connect(transport);
const seen = { listChangedCapability: client.getServerCapabilities()?.tools?.listChanged ?? false };

function minimal(schema) {
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return minimal(schema.anyOf.find((b) => b.type !== "null"));
  switch (schema.type) {
    case "object": return Object.fromEntries((schema.required || []).map((n) => [n, minimal(schema.properties[n])]));
    case "array": return Array(schema.minItems || 0).fill(minimal(schema.items));   // a point has two
    case "string": return "x";
    case "integer": return 1;
    case "number": return 1.0;
    case "boolean": return true;
    default: return null;
  }
}
const ajv = new Ajv({ strict: false });
async function listed() {
  const { tools } = await client.listTools();
  const invalid = tools.filter((tool) => !ajv.compile(tool.inputSchema)(minimal(tool.inputSchema))).map((t) => t.name);
  return { names: tools.map((t) => t.name), invalid };
}
seen.first = await listed();
seen.turned = (await client.callTool({ name: "use_toolset", arguments: { name: "modelling" } })).content[0].text;
await new Promise((r) => setTimeout(r, 300));
seen.listChangedHeard = listChanged;
seen.second = await listed();
// Every toolset the server has (TOOLSETS, from paracore.core.toolsets): a list written here missed new ones.
for (const name of JSON.parse(process.env.TOOLSETS || "[]").filter((n) => n !== "modelling")) {
  await client.callTool({ name: "use_toolset", arguments: { name } });
}
seen.all = await listed();
const started = Date.now();
let progress = 0;
const made = await client.callTool({ name: "create_wall", arguments: { level: "Level 1", start: [0, 0], end: [5, 0] } },
  undefined, { timeout: TIMEOUT_MS, resetTimeoutOnProgress: true, onprogress: () => { progress += 1; } });
seen.write = { isError: made.isError ?? false, seconds: (Date.now() - started) / 1000, progress, approvalSeconds: APPROVAL_S,
               timeoutSeconds: TIMEOUT_MS / 1000 };
console.log(JSON.stringify(seen));
await client.close();
