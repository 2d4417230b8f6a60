"""The web app: rooms of humans and bots playing Skyjo in the browser.

One module per concern:

- `settings`: the knobs of a server (bot pace, absence, limits, database);
- `protocol`: the WebSocket messages, parsed and checked (docs/web-protocol.md);
- `rooms`: a room owns one `skyjo.match.Match` and its connections; the lobby
  holds the rooms;
- `storage`: rooms and their matches saved after every step (SQLAlchemy);
- `app`: the FastAPI application (HTTP routes, the WebSocket, static files);
- `command`: `skyjo serve`.

The server decides everything through the match; a client only ever receives
what its seat (or a spectator) may see.
"""
