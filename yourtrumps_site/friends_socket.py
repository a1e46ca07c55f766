"""The friends list on the site socket: a mixin of `yourtrumps_site.consumers.SiteConsumer`.

A signed-in player's site socket is sent `{"type": "friends", "friends": [{name, url, online,
watch_url, challenge_url}]}` on connect and whenever a friend opens or closes a page of the
site (so comes online, goes offline, or opens the game they now play). Each socket tells the
friends of its player through their notification groups (`friends.changed`), in any process.
"""

from __future__ import annotations

from typing import Any

from accounts import social
from accounts.models import User
from accounts.signals import friendships_changed
from infra.db_threads import db_call
from infra.group_send import group_send_all
from infra.socket_caps import registry
from notifications.services import notify_group
from yourtrumps_site.friends import friends_rows


class FriendsSocket:
    """Mix in before the consumer, which sets `user_id` and joins its notification group."""

    user_id: int | None = None

    async def friends_join(self) -> None:
        await self._friends_send()
        await self._friends_tell()

    async def friends_leave(self) -> None:
        await self._friends_tell()

    async def _friends_tell(self) -> None:
        assert self.user_id is not None
        ids = await db_call(social.friend_ids, user_id=self.user_id)
        for friend_id in ids:
            await self.channel_layer.group_send(  # type: ignore[attr-defined]
                notify_group(friend_id), {"type": "friends.changed"})

    async def _friends_send(self) -> None:
        assert self.user_id is not None
        ids = await db_call(social.friend_ids, user_id=self.user_id)
        online = await registry.users_online(kind="site", user_ids=sorted(ids))
        rows = await db_call(friends_rows, user_id=self.user_id, online=online)
        await self.send_json({"type": "friends", "friends": rows})  # type: ignore[attr-defined]

    async def friends_changed(self, event: dict[str, Any]) -> None:
        await self._friends_send()


def _on_friendships_changed(sender: Any, user_ids: list[int], **kwargs: Any) -> None:
    """Send fresh friends lists to every open page of `user_ids` (a follow or a block changed
    who their friends are). From sync code, after the change is committed."""
    group_send_all([(notify_group(user_id), {"type": "friends.changed"})
                    for user_id in user_ids])


def connect_signals() -> None:
    friendships_changed.connect(_on_friendships_changed, sender=User,
                                dispatch_uid="friends_socket.friendships_changed")
