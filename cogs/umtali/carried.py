"""What pictures a seat's DM panel carries, as far as this copy of the match knows: so that an
edit showing the same ones leaves them there instead of uploading them again (review139: most
edits of a session re-sent an identical picture of the hand).

Known only once an upload has landed with no other on its way as it began, or begun since (a
click's answer and the delivery may edit the panel at once, taken by Discord in either order);
unknown, the next edit uploads, as every edit did before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Carried:
    #: The panel message, and the ``Shown.digest`` of the pictures on it ('' unknown).
    message_id: int | None = None
    digest: str = ""
    #: Uploads to the seat's panel on their way, and a count of those begun.
    flying: int = 0
    begun: int = 0

    def on(self, message_id: int | None) -> str:
        """The digest of what ``message_id`` carries, '' if unknown."""
        return self.digest if message_id is not None and message_id == self.message_id else ""

    def upload(self, message_id: int | None, digest: str) -> Callable[[bool], None]:
        """An upload of the pictures ``digest`` to ``message_id`` begins: what the panel
        carries is unknown until it ends (the function it gives, told whether it landed)."""
        # Begun while another is on its way: which Discord took last is not known, whichever
        # answer comes last.
        alone = not self.flying
        self.flying += 1
        self.begun += 1
        mine = self.begun
        self.digest = ""
        done = False

        def ended(landed: bool) -> None:
            nonlocal done
            if done:
                return
            done = True
            self.flying -= 1
            if landed and alone and not self.flying and self.begun == mine and \
                    message_id is not None:
                self.message_id, self.digest = message_id, digest
        return ended
