// An MCP client session run by the official TypeScript SDK (npm `@modelcontextprotocol/sdk`, installed
// with the web app's packages), for the API tests. Reads {"url", "token", "sessions", "steps"} as JSON
// on stdin, as mcp_client.py does; prints {"sessions": [{"server", "protocol", "results"}]}.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const web = new URL('../../../../web/package.json', import.meta.url);
const require = createRequire(web);
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);
const { Client } = await load('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = await load('@modelcontextprotocol/sdk/client/streamableHttp.js');

let input = '';
for await (const chunk of process.stdin) input += chunk;
const asked = JSON.parse(input);

async function session() {
  const transport = new StreamableHTTPClientTransport(new URL(asked.url), {
    requestInit: { headers: { Authorization: `Bearer ${asked.token}` } },
  });
  const client = new Client({ name: 'insights-tests', version: '1.0.0' });
  await client.connect(transport);
  const results = [];
  for (const step of asked.steps) {
    if (step.tool) results.push(await client.callTool({ name: step.tool, arguments: step.args ?? {} }));
    else if (step.list_tools) results.push(await client.listTools());
    else if (step.list_resources) results.push(await client.listResources());
    else if (step.templates) results.push(await client.listResourceTemplates());
    else results.push(await client.readResource({ uri: step.read }));
  }
  const server = client.getServerVersion();
  await client.close();
  return { server, protocol: transport.protocolVersion ?? null, results };
}

const sessions = await Promise.all(Array.from({ length: asked.sessions ?? 1 }, () => session()));
process.stdout.write(JSON.stringify({ sessions }));
