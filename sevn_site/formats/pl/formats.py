"""Polish dates as Polish readers write them: 05.12.2026, not Django's 05-12-2026. What is not
here comes from Django's own Polish formats."""

from __future__ import annotations

SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
