"""The server's end of the stdio stream: messages framed, parsed and checked before pygls
dispatches them, so a malformed message is answered and never costs the stream.

pygls' reader (``pygls.io_.run_async``) takes a ``Content-Length`` header only when it fills a
whole line; after a header it cannot read, it reads the body as headers and every later
message with it, so the session goes silent. Its parser structures the parameters inside
``json.loads`` and, when they are of the wrong type (a negative position, a string for a
number), logs a traceback and answers nothing. This module replaces that one loop and keeps
the rest of pygls (dispatch, handlers, responses):

- a header is found wherever a line ends with it, so the stream resynchronises on the next
  valid header after garbage, a malformed length or the rest of a too short body;
- a body that runs into the next message's header (a too long ``Content-Length``) is cut
  there, and the next message is read from its header on: no raw CR LF is valid inside JSON,
  so a header line inside a body always means the framing is wrong;
- a length over ``MAX_BODY_BYTES`` is refused without reading it as a body;
- a body that is not JSON gets a Parse error (id null), a request whose parameters do not
  fit the protocol's types gets Invalid params with the reason, a notification that does
  not fit is dropped with one line in the log. No traceback for any of them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, BinaryIO

import cattrs
from pygls.protocol import JsonRPCNotification, JsonRPCProtocol, JsonRPCRequestMessage, default_converter

log = logging.getLogger("kbgen.lsp")

# A didOpen of the largest record file (2 MiB), escaped as JSON, stays far below this.
MAX_BODY_BYTES = 64 * 1024 * 1024
MAX_HEADER_LINE = 64 * 1024  # a longer "line" is garbage; only its end may hold a header
CHUNK = 1 << 16
_HEADER = re.compile(rb"content-length:[ \t]*(\d{1,20})[ \t]*\r?\n\Z", re.IGNORECASE)
_LENGTH_NAME = re.compile(rb"[ \t]*content-length[ \t]*:", re.IGNORECASE)
_HEADER_IN_BODY = re.compile(rb"content-length:[ \t]*\d+[ \t]*\r\n", re.IGNORECASE)
_HEADER_TAIL = 64  # a header split between two reads is found again within this overlap
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


@dataclass(frozen=True, slots=True)
class Refusal:
    """A frame that holds no message: why, for the answer and the log."""

    reason: str


class FrameReader:
    """Bytes from the client with a line and a body reader, and room to give bytes back."""

    def __init__(self, read_some: Callable[[], Awaitable[bytes]]) -> None:
        self._read_some = read_some
        self._buffer = bytearray()
        self._ended = False

    async def _fill(self) -> bool:
        if self._ended:
            return False
        chunk = await self._read_some()
        if not chunk:
            self._ended = True
            return False
        self._buffer += chunk
        return True

    async def line(self) -> bytes | None:
        """The next line with its LF (or the rest, at the end); a line longer than
        ``MAX_HEADER_LINE`` comes in pieces, each keeping the tail a header may start in."""
        searched = 0
        while True:
            end = self._buffer.find(b"\n", searched)
            if end >= 0:
                found = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                return found
            searched = len(self._buffer)
            if len(self._buffer) > MAX_HEADER_LINE:
                del self._buffer[: len(self._buffer) - _HEADER_TAIL]
                searched = 0
            if not await self._fill():
                rest = bytes(self._buffer)
                self._buffer.clear()
                return rest or None

    async def body(self, length: int) -> bytes | Refusal | None:
        """``length`` bytes, or a refusal when a header line comes first (given back, so the
        next message is read from it); None at the end of the stream."""
        scanned = 0
        while True:
            window = min(len(self._buffer), length)
            found = _HEADER_IN_BODY.search(self._buffer, max(scanned - _HEADER_TAIL, 0), window)
            if found is not None:
                del self._buffer[: found.start()]
                return Refusal(f"Content-Length {length} runs into the next message's header")
            scanned = window
            if len(self._buffer) >= length:
                body = bytes(self._buffer[:length])
                del self._buffer[:length]
                return body
            if not await self._fill():
                return None


async def frames(reader: FrameReader) -> AsyncIterator[bytes | Refusal]:
    """Each message body of the stream, or a refusal where a frame holds none."""
    length: int | None = None
    refused: str | None = None
    while True:
        line = await reader.line()
        if line is None:
            return
        if not line.strip():  # the end of a frame's headers
            if length is not None:
                body = await reader.body(length)
                if body is None:
                    return
                yield body
            elif refused is not None:
                yield Refusal(refused)
            length, refused = None, None
            continue
        header = _HEADER.search(line)
        if header is not None:
            size = int(header.group(1))
            if size > MAX_BODY_BYTES:
                length, refused = None, f"Content-Length {size} is over the limit of {MAX_BODY_BYTES}"
            else:
                length, refused = size, None
        elif _LENGTH_NAME.match(line):
            length, refused = None, "malformed Content-Length header"
        # Any other line (Content-Type, or the rest of a body the framing lost) is passed over.


def error_frame(protocol: JsonRPCProtocol, message_id: Any, code: int, reason: str) -> bytes:
    """A JSON-RPC error response, framed as pygls frames its own."""
    body = json.dumps(
        {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": reason}}
    ).encode("utf-8")
    head = f"Content-Length: {len(body)}\r\nContent-Type: {protocol.CONTENT_TYPE}; charset=utf-8\r\n\r\n"
    return head.encode("ascii") + body


class MessageGate:
    """Parses and types one body as pygls would, answering what does not fit."""

    def __init__(self, protocol: JsonRPCProtocol, admit: Callable[[Any], bool]) -> None:
        self._protocol = protocol
        self._converter = default_converter()
        self._admit = admit

    def answer(self, message_id: Any, code: int, reason: str) -> None:
        writer = self._protocol.writer
        if writer is not None:
            writer.write(error_frame(self._protocol, message_id, code, reason))

    def handle(self, frame: bytes | Refusal) -> None:
        if isinstance(frame, Refusal):
            log.warning("refused a frame: %s", frame.reason)
            self.answer(None, PARSE_ERROR, frame.reason)
            return
        try:
            data = json.loads(frame)
        except (ValueError, RecursionError):
            log.warning("refused a message that is not JSON (%d bytes)", len(frame))
            self.answer(None, PARSE_ERROR, "the message is not JSON")
            return
        message = self._typed(data)
        if message is not None and self._admit(message):
            self._protocol.handle_message(message)

    def _typed(self, data: object) -> Any:
        """The message as the protocol's type for its method; None when it was answered or
        dropped instead."""
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            self.answer(None, INVALID_REQUEST, "not a JSON-RPC 2.0 message")
            return None
        method = data.get("method")
        if not isinstance(method, str):
            if "method" in data:
                self.answer(data.get("id"), INVALID_REQUEST, "the method is not a string")
                return None
            return self._protocol.structure_message(data)  # a response to the server's request
        request = "id" in data
        if request and not isinstance(data["id"], int | str):
            self.answer(None, INVALID_REQUEST, "the id is not a number or a string")
            return None
        fallback = JsonRPCRequestMessage if request else JsonRPCNotification
        kind = self._protocol.get_message_type(method) or fallback
        try:
            return self._converter.structure(data, kind)
        except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
            reason = _reason(method, exc)
            if request:
                self.answer(data["id"], INVALID_PARAMS, reason)
            else:
                log.warning("dropped a notification: %s", reason)
            return None


def _reason(method: str, exc: Exception) -> str:
    """What did not fit, in a line or three (cattrs names the field path)."""
    if isinstance(exc, cattrs.BaseValidationError):
        details = cattrs.transform_error(exc, path=method)
        return "invalid params: " + "; ".join(detail[:200] for detail in details[:3])
    return f"invalid params of {method}: {str(exc)[:200]}"


def stdin_reader(stdin: BinaryIO, loop: asyncio.AbstractEventLoop, executor: Executor) -> FrameReader:
    """A frame reader over the process' standard input, read in a worker thread (what is
    available, at most ``CHUNK`` bytes at a time)."""
    read1 = getattr(stdin, "read1", stdin.read)
    return FrameReader(lambda: loop.run_in_executor(executor, read1, CHUNK))


async def serve(stdin: BinaryIO, executor: Executor, gate: MessageGate) -> None:
    """Read and hand on every message until the client closes the stream (or ``exit`` ends
    the process, as pygls ends it)."""
    reader = stdin_reader(stdin, asyncio.get_running_loop(), executor)
    async for frame in frames(reader):
        gate.handle(frame)
