// /api/v1/mcp: the Model Context Protocol (revision 2025-11-25) over Streamable HTTP, on the
// protocol's official SDK. Stateless: every POST gets a server and a transport of its own, which
// answer it in JSON and are gone; no session is kept between requests (an Edge Function keeps
// nothing either). Without a key it offers the public tools; with `Authorization: Bearer rk_…`
// the organization's too (docs/agents.md).
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
// The package's export map gives `./*.js` no types of its own: each is named (as in tool.ts).
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import { bearerToken, isWellFormedKey } from '../api-keys/format.ts';
import { errorResponse } from '../http/errors.ts';
import type { AppEnv } from '../http/env.ts';
import { publicRoute, router } from '../routes/define.ts';
import { errorResponseSpec } from '../http/schemas.ts';
import { KEYED_TOOLS } from './keyed-tools.ts';
import { PUBLIC_TOOLS } from './public-tools.ts';
import { type Dispatch, toolCaller } from './routes.ts';
import { invalidArguments, REVIEW_TEXT_IS_DATA, type Tool, type ToolContext } from './tool.ts';

export { PUBLIC_TOOL_REVIEW_FIELDS } from './public-tools.ts';

// The SDK's validator of JSON Schemas (for what a client sends back), made once: a server makes
// its own Ajv otherwise, which cost 1.4 ms of every request's 1.5. It holds compiled schemas,
// nothing of any request or client.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** The JSON-RPC answer, as the document describes it (the protocol's schema says the rest). */
const McpAnswer = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]).nullable(),
  result: z.object({
    protocolVersion: z.string().optional().describe('initialize: `2025-11-25`'),
    tools: z.array(z.object({ name: z.string(), description: z.string() })).optional().describe('tools/list'),
    content: z.array(z.object({ type: z.literal('text'), text: z.string() })).optional().describe(
      'tools/call: the data as one JSON text (beside `structuredContent`), or the refusal',
    ),
    isError: z.boolean().optional().describe("tools/call: true for a refusal with the route's message"),
  }).optional().describe("The method's result, as MCP 2025-11-25 defines it"),
  error: z.object({ code: z.number().int(), message: z.string() }).optional().describe(
    'A JSON-RPC error: -32602 for bad arguments or an unknown tool',
  ),
});

const INSTRUCTIONS =
  `Plaudit's customer reviews: ratings, reviews, products and transparency reports of businesses, by their public slug. ${REVIEW_TEXT_IS_DATA}`;

/** The tool's listing: its name, words and arguments' JSON Schema. */
function listing(t: Tool) {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any' }) as {
      type: 'object';
      [k: string]: unknown;
    },
    annotations: { readOnlyHint: t.readOnly, openWorldHint: false },
  };
}

/** A server of one request, with the tools its caller may use. */
function serverFor(tools: Tool[], ctx: ToolContext, version: string) {
  const server = new Server({ name: 'plaudit', version }, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator,
  });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(listing) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const t = byName.get(request.params.name);
    if (!t) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = t.input.safeParse(request.params.arguments ?? {});
    if (!args.success) {
      const first = args.error.issues[0];
      throw invalidArguments(`${first.path.join('.') || 'arguments'}: ${first.message}`);
    }
    return await t.run(args.data, ctx);
  });
  return server;
}

/** The MCP endpoint; `dispatch` is the app's own, through which tools call their routes. */
export function mcpServer({ dispatch, version = '0.1.0' }: { dispatch: Dispatch; version?: string }) {
  const handle = async (c: Context<AppEnv>) => {
    const authorization = c.req.header('authorization');
    // A key that cannot be one is refused as every keyed route refuses it.
    if (authorization !== undefined && !isWellFormedKey(bearerToken(authorization) ?? '')) {
      return errorResponse(c, 401, 'Malformed API key: expected Authorization: Bearer rk_…');
    }
    const tools = authorization === undefined ? PUBLIC_TOOLS : [...PUBLIC_TOOLS, ...KEYED_TOOLS];
    const ctx: ToolContext = { sql: c.var.sql, config: c.var.config, caller: toolCaller(c, dispatch) };
    const server = serverFor(tools, ctx, version);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      // The body was read by the app's middleware (its size, its text): the transport gets it again.
      const raw = c.req.raw;
      const body = await c.req.text();
      const answer = await transport.handleRequest(
        new Request(raw.url, { method: 'POST', headers: raw.headers, body }),
      );
      // Through the context, so that the headers the middleware set (the rate limit's) go with it.
      answer.headers.forEach((value, name) => c.header(name, value));
      return c.body(answer.body as ReadableStream, answer.status as 200);
    } finally {
      void server.close();
    }
  };
  // Stateless: no stream of the server's own to open (GET) and no session to end (DELETE): the
  // app answers both 405 with `Allow: POST`, which tells a client not to try again.
  return router().openapi(
    publicRoute({
      method: 'post',
      path: '/mcp',
      operationId: 'mcp.message',
      tags: ['Agents'],
      summary: 'Model Context Protocol (Streamable HTTP)',
      description:
        "One JSON-RPC message of the Model Context Protocol (revision 2025-11-25), answered in JSON; no session is kept. Without a key: the public tools (`get_rating`, `search_reviews`, `list_products`, `get_transparency`); with `Authorization: Bearer rk_…`, the organization's too, each allowed by the key's scope as its route. Each tool call counts against the rate limit of the route it mirrors. docs/agents.md.",
      responses: {
        200: { description: 'The JSON-RPC answer', content: { 'application/json': { schema: McpAnswer } } },
        202: { description: 'A notification or a response, accepted' },
        401: errorResponseSpec('A malformed key'),
      },
    }),
    handle as never,
  );
}
