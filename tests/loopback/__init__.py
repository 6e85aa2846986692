"""A loopback Discord: an aiohttp server on 127.0.0.1 that the real bot talks to over sockets."""
