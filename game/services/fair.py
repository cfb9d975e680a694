"""Fair deals: a seated person's client seed for the next deal (game.fair.seeds has the scheme)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from game.core.errors import ServiceError
from game.core.identity import Player
from game.fair import seeds
from game.models import Seat, Table
from game.services.common import locked_table


@transaction.atomic
def client_seed_set(*, code: str, player: Player, seed: object, commitment: object) -> str:
    """A seated person's browser contributes its client seed to the next deal, having seen that
    deal's commitment (`commitment`: the one it saw; a stale one is refused, so a seed is never
    counted for a deal whose commitment its sender did not see). Returns the seed as kept."""
    table = locked_table(code)
    if table.status not in (Table.Status.LOBBY, Table.Status.FINISHED):
        raise ServiceError("dealt", _("This game is already dealt: your seed counts for the next one."))
    if not table.next_seed or str(commitment or "") != seeds.commitment(table.next_seed):
        raise ServiceError("stale_commitment", _("The next deal's commitment changed: your seed was not sent."))
    clean = seeds.clean_client_seed(seed)
    if clean is None:
        raise ServiceError("bad_seed", _("A client seed has 1 to 64 letters and digits."))
    updated = Seat.objects.filter(table=table, player_key=player.key, bot_level="").exclude(player_key="")
    if not updated.update(client_seed=clean):
        raise ServiceError("not_seated", _("You are not seated at this table."))
    return clean
