"""Public ids in Anthropic's shape: a prefix and 24 base62 characters."""

import secrets
import string

_ALPHABET = string.ascii_letters + string.digits


def new_id(prefix: str) -> str:
    """Return ``prefix`` followed by 24 random base62 characters (URL-safe, opaque)."""
    return prefix + "".join(secrets.choice(_ALPHABET) for _ in range(24))


def new_store_id() -> str:
    return new_id("memstore_")


def new_memory_id() -> str:
    return new_id("mem_")


def new_version_id() -> str:
    return new_id("memver_")


def new_set_aside_id() -> str:
    return new_id("setaside_")


def new_api_key_id() -> str:
    return new_id("apikey_")


def new_promotion_id() -> str:
    return new_id("promo_")
