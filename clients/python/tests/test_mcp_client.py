"""The MCP client's parsing of answers, without a server: SSE events and JSON bodies.

The profile suites run the client against `quiver serve` (which answers a POST with an event stream);
these cases pin the parts a server may use that Quiver's does not: a JSON body, batched answers,
comments, multi-line `data`, CRLF line ends, notifications before the answer.
"""

from __future__ import annotations

import io
import json
import unittest

from quiver_seed.mcp_client import McpClient, McpError, _sse_events


def stream(text: str) -> io.BytesIO:
    return io.BytesIO(text.encode("utf-8"))


class SseEvents(unittest.TestCase):
    def test_events_end_at_blank_lines_and_join_data_lines(self) -> None:
        text = ": keep-alive\n\nevent: message\nid: 1\ndata: {\"a\":\ndata: 1}\n\ndata:no-space\n\n"
        self.assertEqual(list(_sse_events(iter(stream(text).readline, b""))),
                         [("message", '{"a":\n1}'), ("message", "no-space")])

    def test_crlf_line_ends_and_a_last_event_without_blank_line(self) -> None:
        text = "event: message\r\ndata: x\r\n\r\ndata: y"
        self.assertEqual(list(_sse_events(iter(stream(text).readline, b""))), [("message", "x"), ("message", "y")])


class Answers(unittest.TestCase):
    def test_the_answer_after_notifications_in_a_stream(self) -> None:
        notification = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}}
        answer = {"jsonrpc": "2.0", "id": 7, "result": {"ok": True}}
        text = f"data: {json.dumps(notification)}\n\ndata: {json.dumps(answer)}\n\n"
        self.assertEqual(McpClient._answer_from_stream(stream(text), 7), answer)

    def test_a_stream_that_ends_without_the_answer(self) -> None:
        text = 'data: {"jsonrpc": "2.0", "id": 6, "result": {}}\n\n'
        with self.assertRaises(McpError):
            McpClient._answer_from_stream(stream(text), 7)

    def test_a_json_body_single_or_batched(self) -> None:
        answer = {"jsonrpc": "2.0", "id": 3, "result": {"tools": []}}
        self.assertEqual(McpClient._answer_from_json(answer, 3), answer)
        self.assertEqual(McpClient._answer_from_json([{"jsonrpc": "2.0", "id": 2, "result": {}}, answer], 3), answer)
        with self.assertRaises(McpError):
            McpClient._answer_from_json({"jsonrpc": "2.0", "id": 2, "result": {}}, 3)


if __name__ == "__main__":
    unittest.main()
