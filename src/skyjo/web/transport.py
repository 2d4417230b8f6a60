"""The WebSocket transport of `skyjo serve`: uvicorn's (websockets, sans-I/O) with
permessage-deflate for the messages worth compressing only.

Compressing costs the server CPU for every message it sends, however small, and
saves bytes that matter on a slow link only when they save packets: a message
that fits in one TCP segment (about 1,460 bytes of payload) takes one packet
compressed or not. An `update` of a 2- to 6-seat game is 0.6 to 1.3 kB and is
sent to every viewer after every step; a `state` (with its log of the last
steps) is 2 to 10 kB, sent when a page connects. RFC 7692 lets a sender leave any
message uncompressed (its RSV1 bit clear), and every client reads both: messages
under `MIN_COMPRESSED` bytes go as they are. The compressor's context (its
window) only sees the messages it compresses, as the client's decompressor does,
so skipping one keeps them in step.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CONT, Frame

#: Messages shorter than this (bytes) are sent uncompressed: about what one TCP
#: segment carries, so that compression never costs CPU without saving a packet.
MIN_COMPRESSED = 1400


class SmallUncompressed(PerMessageDeflate):
    """permessage-deflate that sends a single-frame message under `MIN_COMPRESSED`
    bytes uncompressed."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode is not CONT and frame.fin and len(frame.data) < MIN_COMPRESSED:
            return frame
        return super().encode(frame)


class _Factory(ServerPerMessageDeflateFactory):
    """uvicorn's permessage-deflate offer, its extension `SmallUncompressed`."""

    def process_request_params(
        self, params: Any, accepted_extensions: Any
    ) -> tuple[list[tuple[str, str | None]], Extension]:
        response, extension = super().process_request_params(params, accepted_extensions)
        assert isinstance(extension, PerMessageDeflate)
        extension.__class__ = SmallUncompressed  # the same state, this `encode`
        return response, extension


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, its permessage-deflate `SmallUncompressed` (with
    uvicorn's settings: 12-bit windows, memLevel 5), when deflate is on."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn.available_extensions = [
                _Factory(
                    server_max_window_bits=12,
                    client_max_window_bits=12,
                    compress_settings={"memLevel": 5},
                )
            ]
