import pytest

from app.core.tokens import ForgedToken, seal, unseal


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
