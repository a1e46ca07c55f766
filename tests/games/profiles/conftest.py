"""The profile's tests fill profiles as the account tests do: users and finished games."""

from tests.accounts.conftest import game, make_user  # noqa: F401
