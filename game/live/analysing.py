"""The analyses of finished games (game.services.analysis), worked out beside live play by the
processes that run the deadline loop (game.live.timers), never in its way.

One game at a time per process: its record is claimed on the database thread (a quick update),
then analysed in a process of its own at the lowest CPU priority with a hard cap of CPU seconds
(game.registry.analysing), waited for by a thread of this loop's own (it holds neither the event
loop nor the database thread, and the analysis never holds this interpreter's GIL); the result
is stored on the database thread. The replay asks for it by polling: nothing is sent to any
socket.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async

from game.registry.analysing import analyse_apart, worker_cgroup
from game.services import analysis

logger = logging.getLogger(__name__)

IDLE_SECONDS = 2.0  # how often a process with nothing to analyse looks for a finished game
ON = os.environ.get("SEVN_ANALYSIS", "on").strip().lower() not in ("off", "0", "false", "no")

_waiter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")


async def run_once() -> bool:
    """Analyse one waiting game, if any; whether there was one."""
    job = await database_sync_to_async(analysis.claim_next)()
    if job is None:
        return False
    analysis_id, name, record = job
    try:
        data = await asyncio.get_running_loop().run_in_executor(_waiter, analyse_apart, name, record)
    except Exception:
        logger.exception("analysis %s failed", analysis_id)
        await database_sync_to_async(analysis.fail)(analysis_id)
        return True
    await database_sync_to_async(analysis.finish)(analysis_id, data)
    return True


async def run_forever() -> None:
    await asyncio.get_running_loop().run_in_executor(_waiter, worker_cgroup)  # its cgroup, once, off the loop
    while True:
        try:
            if await run_once():
                continue
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("analysis loop failed; retrying")
        await asyncio.sleep(IDLE_SECONDS)
