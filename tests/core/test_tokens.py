import pytest

from app.core.tokens import ForgedToken, derive, seal, unseal


def test_a_sealed_payload_comes_back():
    token = seal("secret", b"cursor", b"payload \xff")
    assert unseal("secret", b"cursor", token) == b"payload \xff"


@pytest.mark.parametrize(
    ("secret", "purpose", "token"),
    [
        ("other secret", b"cursor", seal("secret", b"cursor", b"p")),
        ("secret", b"link", seal("secret", b"cursor", b"p")),
        ("secret", b"cursor", seal("secret", b"cursor", b"p").replace("cA", "cQ")),
        ("secret", b"cursor", "cA.bm90IGEgbWFj"),
        ("secret", b"cursor", "not a token!"),
        ("secret", b"cursor", ""),
    ],
)
def test_anything_else_is_forged(secret, purpose, token):
    with pytest.raises(ForgedToken):
        unseal(secret, purpose, token)


@pytest.mark.parametrize("junk", ["!", "*", " ", "\n", "=", "é"])
def test_a_character_outside_base64url_makes_a_token_forged(junk):
    # A lenient decoder skips such characters, so many spellings would carry one token.
    token = seal("secret", b"cursor", b"payload")
    encoded, mac = token.split(".")
    damaged_tokens = (
        f"{encoded[:2]}{junk}{encoded[2:]}.{mac}",
        f"{encoded}.{mac[:3]}{junk}{mac[3:]}",
    )
    for damaged in damaged_tokens:
        with pytest.raises(ForgedToken):
            unseal("secret", b"cursor", damaged)


def test_a_derived_key_is_neither_the_secret_nor_shared_between_uses():
    assert derive("api-key", b"cursor") not in ("api-key", derive("api-key", b"other"))
    assert derive("api-key", b"cursor") == derive("api-key", b"cursor")
    # A token sealed with the secret itself does not open with the derived key.
    with pytest.raises(ForgedToken):
        unseal(derive("api-key", b"cursor"), b"cursor", seal("api-key", b"cursor", b"p"))
