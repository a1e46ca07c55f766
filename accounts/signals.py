"""What accounts tell the rest of the site, as Django signals (the site's socket layer closes a
user's sockets on them: `infra.session_sockets`).

- `users_deactivated(sender=User, user_ids=[...])`: staff deactivated these accounts in one
  update (which sends no `pre_save`), inside the transaction that did it.
- `friendships_changed(sender=User, user_ids=[...])`: a follow or a block changed who these
  players' friends are (after it is committed): their open pages read their friends again.
- `user_deleting(sender=User, user=...)`: the owner asked to delete the account; sent by
  `accounts.services.user_delete` inside its transaction, the user's row locked, before the
  row goes. A receiver refuses the deletion by raising `ValidationError` (play: while the
  user sits in a game that is not over).
"""

from __future__ import annotations

from django.dispatch import Signal

users_deactivated = Signal()
friendships_changed = Signal()
user_deleting = Signal()
