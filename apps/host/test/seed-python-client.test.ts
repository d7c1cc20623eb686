import { describePythonSuite } from "./seed-python/harness.js";

// The Python seed suites' MCP client parses answers a server may send that quiver serve does not (a JSON
// body, batched answers, SSE comments, multi-line data, CRLF): clients/python/tests/test_mcp_client.py,
// without a server.
describePythonSuite("the Python seed suites' MCP client", "test_mcp_client", () => ({}));
