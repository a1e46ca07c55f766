"""What matchmaking tells the rest of the site, as Django signals sent inside the transaction
that made the moment, so that what a subscriber writes (a notification) commits or rolls back
with it. Matchmaking imports none of its subscribers (the notifications: `notifications.receivers`).

- `challenge_issued(sender=Challenge, challenge=...)`: a player was challenged by name (an
  open link sends nothing).
- `challenge_answered(sender=Challenge, challenge=...)`: a challenge to a player was
  accepted, declined or withdrawn.
- `table_closed(sender=Table, user_id=..., table=..., days=..., now=...)`: an open
  correspondence table `user_id` sat at closed, nobody having filled it in `days` days; sent
  before the table's row is deleted.
"""

from __future__ import annotations

from django.dispatch import Signal

challenge_issued = Signal()
challenge_answered = Signal()
table_closed = Signal()
