"""The terms every page must use (shared/spec/terms.md), as the tests' expected values."""
from __future__ import annotations

TERMS = {
    #             draw       pass      bust       distinct value          in round
    "en": dict(draw="Draw", pass_="Pass", bust="Bust", distinct="Distinct value", in_round="In round",
               out_round="Out of round", modifier="Modifier", round="Round",
               second_chance="Second Chance", triple_draw="Triple Draw", freeze="Freeze",
               crossroads="Crossroads", storm="Storm", ballast="Ballast", featherweight="Featherweight",
               heavyweight="Heavyweight", ladder="Ladder", slogan="Double = bust"),
    "de": dict(draw="Ziehen", pass_="Passen", bust="Raus", distinct="Unterschiedlicher Wert",
               in_round="Noch in der Runde", out_round="Aus der Runde", modifier="Modifikator", round="Runde",
               second_chance="Second Chance", triple_draw="Triple Draw", freeze="Freeze",
               crossroads="Crossroads", storm="Storm", ballast="Ballast", featherweight="Featherweight",
               heavyweight="Heavyweight", ladder="Ladder", slogan="Doppelt = geplatzt"),
    "nl": dict(draw="Pakken", pass_="Passen", bust="Af", distinct="Verschillende waarde",
               in_round="Nog in de ronde", out_round="Uit de ronde", modifier="Modifier", round="Ronde",
               second_chance="Herkansing", triple_draw="Drie Erbij", freeze="Bevries",
               crossroads="Tweesprong", storm="Storm", ballast="Ballast", featherweight="Lichtgewicht",
               heavyweight="Zwaargewicht", ladder="Ladder", slogan="Dubbel = kapot"),
    "pl": dict(draw="Dobierz", pass_="Pas", bust="Fura", distinct="Różna wartość",
               in_round="Nadal w rundzie", out_round="Poza rundą", modifier="Modyfikator", round="Runda",
               second_chance="Druga szansa", triple_draw="Potrójne dobranie", freeze="Zamrożenie",
               crossroads="Rozdroże", storm="Burza", ballast="Balast", featherweight="Waga piórkowa",
               heavyweight="Waga ciężka", ladder="Drabina", slogan="Dublet = spalenie"),
    "fr": dict(draw="Piocher", pass_="Passer", bust="Éliminé", distinct="Valeur distincte",
               in_round="Encore dans la manche", out_round="Hors de la manche", modifier="Modificateur",
               round="Manche", second_chance="Seconde chance", triple_draw="Triple pioche", freeze="Gel",
               crossroads="Carrefour", storm="Tempête", ballast="Lest", featherweight="Poids plume",
               heavyweight="Poids lourd", ladder="Échelle", slogan="Doublon = éliminé"),
}
TITLES = {
    "de": ("SEVN in einer Minute", "Die vollständigen Regeln"),
    "nl": ("SEVN in één minuut", "De volledige spelregels"),
    "pl": ("SEVN w minutę", "Pełne zasady"),
    "fr": ("SEVN en une minute", "Les règles complètes"),
    "en": ("SEVN in one minute", "The full rules"),
}
