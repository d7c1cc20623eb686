"""Standard-library clients that call Quiver the way the three seed systems do.

`http_client` speaks Quiver's HTTP API, `mcp_client` the MCP Streamable HTTP transport, `seed_call`
puts either behind one `call(tool, arguments)` so each seed's tests run over both, and `upstreams`
drives the test harness's emulated upstreams (faults, outages) when it runs the suites.
"""
