"""The countries a profile may show a flag of: a list, not free text (a flag is a picture of
the code, drawn by the reader's own emoji font)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

COUNTRIES = (
    ("AM", _("Armenia")), ("AR", _("Argentina")), ("AT", _("Austria")),
    ("AZ", _("Azerbaijan")), ("BE", _("Belgium")), ("BR", _("Brazil")),
    ("BY", _("Belarus")), ("CA", _("Canada")), ("CH", _("Switzerland")),
    ("CN", _("China")), ("CZ", _("Czechia")), ("DE", _("Germany")),
    ("EE", _("Estonia")), ("ES", _("Spain")), ("FI", _("Finland")),
    ("FR", _("France")), ("GB", _("United Kingdom")), ("GE", _("Georgia")),
    ("IL", _("Israel")), ("IN", _("India")), ("IT", _("Italy")), ("JP", _("Japan")),
    ("KG", _("Kyrgyzstan")), ("KZ", _("Kazakhstan")), ("LT", _("Lithuania")),
    ("LV", _("Latvia")), ("MD", _("Moldova")), ("NL", _("Netherlands")),
    ("NO", _("Norway")), ("PL", _("Poland")), ("PT", _("Portugal")),
    ("RO", _("Romania")), ("RS", _("Serbia")), ("RU", _("Russia")), ("SE", _("Sweden")),
    ("TJ", _("Tajikistan")), ("TR", _("Türkiye")), ("UA", _("Ukraine")),
    ("US", _("United States")), ("UZ", _("Uzbekistan")),
)
COUNTRY_CODES = frozenset(code for code, _name in COUNTRIES)


def flag(code: str) -> str:
    """The flag emoji of a two-letter code ('' for none)."""
    if len(code) != 2 or not code.isascii() or not code.isalpha():
        return ""
    return "".join(chr(0x1F1E6 + ord(letter) - ord("A")) for letter in code.upper())
