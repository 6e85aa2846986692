"""Discord's failures, by what they mean for what was being sent: gone for good, or may pass.

The delivery, the time controls and the commands all sort a failure so: a place ``GONE`` is not
tried again (the match's channel is lost, a player's DMs refused), a failure ``PASSING`` is
tried again later, and any other refusal (a 400) is a bug of ours.
"""

from __future__ import annotations

import aiohttp
import discord

#: Discord's answers that will not change if asked again: the place is gone or closed to us.
GONE = (discord.NotFound, discord.Forbidden)
#: Failures that may pass: Discord's 5xx (after discord.py's own retries), the network. Any
#: other refusal (a 400) is a bug of ours: logged, and not tried again.
PASSING = (discord.DiscordServerError, aiohttp.ClientError, TimeoutError, OSError)
#: Discord's error code for a message that no longer exists (its channel still does).
UNKNOWN_MESSAGE = 10008
