import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { type Catalog, definePlugin, defineTool } from "@quiver/core";
import { useCatalog } from "@quiver/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  availableAliasSets,
  type CatalogMcpServerOptions,
  createMcpServer,
  unknownAliasSets,
} from "../src/index.js";

// A plugin with another server's names for its tools: the MCP layer lists and calls them so.
const lookup = defineTool({
  name: "books_find_book_id",
  description: "The id of a book by its title; then call books_get_book with that book_id.",
  category: "search",
  input: z.object({
    book_title: z.string().min(1).describe("The title, e.g. Dune"),
    max_results: z.number().int().min(1).max(5).optional(),
  }),
  output: z.object({ book_id: z.string() }),
  annotations: { readOnly: true },
  run: ({ book_title }) => ({ book_id: `/books/${book_title.toLowerCase()}` }),
});
const get = defineTool({
  name: "books_get_book",
  description: "One book by its book_id (from books_find_book_id).",
  category: "search",
  input: z.object({ book_id: z.string().startsWith("/books/").describe("The book_id, e.g. /books/dune") }),
  output: z.object({ book_id: z.string(), pages: z.number() }),
  annotations: { readOnly: true },
  run: ({ book_id }) => ({ book_id, pages: 412 }),
});
const books = definePlugin({
  specificationVersion: "v1",
  id: "books",
  version: "1.0.0",
  tools: [lookup, get],
  instructions: "Call books_find_book_id before books_get_book.",
  aliasSets: [
    {
      name: "books-official",
      tools: [
        {
          alias: "find-book",
          tool: lookup.name,
          parameters: { bookTitle: "book_title", limit: "max_results" },
        },
        { alias: "get-book", tool: get.name, parameters: { bookId: "book_id" } },
      ],
    },
  ],
});

const makeCatalog = useCatalog({ env: {} });
let catalog: Catalog;
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  catalog = makeCatalog();
  catalog.register(books);
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

const connect = async (options: CatalogMcpServerOptions) => {
  const server = createMcpServer(catalog, options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "alias", version: "1.0.0" });
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
};

type Envelope = { status: string; message: string; suggestion?: string; data?: unknown };

describe("alias sets over MCP", () => {
  it("are offered by the plugins that declare them", () => {
    expect(availableAliasSets(catalog)).toEqual([
      { name: "books-official", plugin: "books", tools: { "find-book": lookup.name, "get-book": get.name } },
    ]);
    expect(unknownAliasSets(catalog, ["books-official", "nope"])).toEqual(["nope"]);
  });

  it("list the aliased tools under their aliases, with renamed parameters and prose", async () => {
    const client = await connect({ aliasSets: ["books-official"] });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["find-book", "get-book"]);
    const find = tools[0]!;
    expect(Object.keys(find.inputSchema.properties ?? {})).toEqual(["bookTitle", "limit"]);
    expect(find.inputSchema.required).toEqual(["bookTitle"]);
    expect(find.description).toBe("The id of a book by its title; then call get-book with that book_id.");
    expect(tools[1]!.description).toBe("One book by its bookId (from find-book).");
    expect(JSON.stringify(tools[1]!.inputSchema)).toContain("The bookId, e.g. /books/dune");
    expect(client.getInstructions()).toBe("Call find-book before get-book.");
  });

  it("call by the alias with the alias's parameters, and refuse in the alias's names", async () => {
    const client = await connect({ aliasSets: ["books-official"] });
    const found = await client.callTool({ name: "find-book", arguments: { bookTitle: "Dune", limit: 2 } });
    expect((found.structuredContent as Envelope).data).toEqual({ book_id: "/books/dune" });
    const got = await client.callTool({ name: "get-book", arguments: { bookId: "/books/dune" } });
    expect((got.structuredContent as Envelope).status).toBe("success");
    const bad = await client.callTool({ name: "get-book", arguments: { bookId: "dune" } });
    const refused = bad.structuredContent as Envelope;
    expect(refused.status).toBe("error");
    expect(`${refused.message} ${refused.suggestion}`).toMatch(/bookId/);
    expect(`${refused.message} ${refused.suggestion}`).not.toMatch(/book_id/);
    // The tool's own name stays callable.
    const own = await client.callTool({ name: "books_get_book", arguments: { book_id: "/books/dune" } });
    expect((own.structuredContent as Envelope).status).toBe("success");
  });

  it("leave the list as it is without a set", async () => {
    const client = await connect({});
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([lookup.name, get.name]);
  });
});
