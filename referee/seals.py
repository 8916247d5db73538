"""Sealed secrets: a choice made at the table that nobody, the referee included, reads before it is
opened.

The log keeps only a commitment: SHA-256 of the secret salted with a random receipt code that is
shown to the player once and never stored. A secret drawn from a small set (three letters out of
26: 2,600 sets) cannot be found by trying them all against the log, because the salt is missing;
the receipt carries 60 random bits. At the end the player types the secret and the receipt, and
`opens` checks them against the commitment.
"""

from __future__ import annotations

try:  # the builtin module: hashlib would first load OpenSSL (3-5 ms of every reveal)
    from _sha256 import sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - another Python
    from hashlib import sha256

# Crockford's base32: no I, L, O or U, so a receipt copied by hand reads back unambiguously.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
GROUPS, GROUP = 3, 4  # XXXX-XXXX-XXXX: 12 symbols, 60 bits
PREFIX = "sha256:"
_READ_AS = {"O": "0", "I": "1", "L": "1", "U": "V"}


def new_receipt() -> str:
    """A fresh receipt code, e.g. `7KQF-2M9X-PA4D`."""
    import secrets  # only when a seal is made

    symbols = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP))
    return "-".join(symbols[i:i + GROUP] for i in range(0, len(symbols), GROUP))


def normal_receipt(text: str) -> str | None:
    """A receipt as typed (any case, with or without dashes, O for 0...) in canonical form, or
    None when it cannot be one."""
    plain = "".join(_READ_AS.get(c, c) for c in text.upper() if c not in "- ")
    if len(plain) != GROUPS * GROUP or any(c not in ALPHABET for c in plain):
        return None
    return "-".join(plain[i:i + GROUP] for i in range(0, len(plain), GROUP))


def commitment(secret: str, receipt: str) -> str:
    """The seal written to the log: `sha256:` and 64 hex digits."""
    digest: str = sha256(f"referee-seal/1\n{receipt}\n{secret}".encode()).hexdigest()
    return PREFIX + digest


def is_commitment(text: str) -> bool:
    digits = text[len(PREFIX):]
    return text.startswith(PREFIX) and len(digits) == 64 and \
        all(c in "0123456789abcdef" for c in digits)


def opens(seal: str, secret: str, receipt: str) -> bool:
    """Whether `secret` with `receipt` (canonical forms) is what was sealed. The two are
    compared through a second hash, so the time the comparison takes says nothing about the
    seal (as hmac.compare_digest would ensure, at the cost of loading OpenSSL)."""
    return _blind(seal) == _blind(commitment(secret, receipt))


def _blind(text: str) -> bytes:
    blinded: bytes = sha256(text.encode()).digest()
    return blinded
