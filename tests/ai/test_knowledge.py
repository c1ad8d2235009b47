"""Knowledge documents: upload (PDF or text, ≤ 20 MB), list, delete; split into passages that
full-text search finds."""

from __future__ import annotations

import io

import aiohttp

from app.ai import sources, store
from app.core import database
from tests.ai.files import make_pdf
from tests.web import confirm_page

KNOWLEDGE = "/admin/knowledge"

HANDBOOK = "\n\n".join(
    [
        "Fuel cards are topped up every Monday by the fleet team.",
        "If your scooter breaks down, call the roadside number on the key tag.",
        "Cash orders must be paid to the hub before 22:00.",
    ]
    + [f"Filler paragraph {n}: " + "the road is long " * 60 for n in range(10)]
)


async def upload(client, name: str, data: bytes):
    token = await client.csrf(KNOWLEDGE)
    form = aiohttp.FormData(quote_fields=False)  # the name as a browser sends it
    form.add_field("csrf_token", token)  # first, as a browser sends the page's hidden field
    form.add_field("file", io.BytesIO(data), filename=name)
    return await client.post(KNOWLEDGE, data=form, allow_redirects=False)


async def test_a_text_document_is_split_listed_searched_and_deleted(ai_admin, database_url):
    response = await upload(ai_admin, "handbook.md", HANDBOOK.encode())
    assert response.status == 303
    page = await (await ai_admin.get(response.headers["Location"])).text()
    assert "handbook.md was added to the assistant" in page
    assert "handbook.md" in page
    async with database.connect(database_url) as conn:
        passages = await conn.fetch("SELECT body FROM knowledge_passages ORDER BY position")
        assert len(passages) > 3 and all(len(p["body"]) <= 1_500 for p in passages)
        found = await store.search_knowledge(conn, "my scooter broke down, who do I call?", 3)
        assert "roadside number" in found[0]["body"]
        assert found[0]["name"] == "handbook.md"
        document_id = await conn.fetchval("SELECT document_id FROM knowledge_documents")
        roadside = "SELECT passages FROM knowledge_terms WHERE word = 'roadside'"
        assert await conn.fetchval(roadside) == 1
    # Asked first, on a page of its own (docs/admin-panel.md): the list links to it.
    delete = f"{KNOWLEDGE}/{document_id}/delete"
    assert f'<a href="{delete}" aria-label="Delete handbook.md">' in page
    confirm = await confirm_page(ai_admin, delete, delete)
    assert "Delete the knowledge document handbook.md?" in confirm
    assert f"Its {len(passages)} passages leave the assistant" in confirm
    assert f'href="{KNOWLEDGE}">Keep the document</a>' in confirm
    response = await ai_admin.submit(delete, {}, form_page=delete)
    assert response.status == 303
    async with database.connect(database_url) as conn:
        assert await conn.fetchval("SELECT count(*) FROM knowledge_passages") == 0
        assert await conn.fetchval(roadside) == 0
    assert "handbook.md" not in await (await ai_admin.get(KNOWLEDGE)).text()
    response = await ai_admin.submit(f"{KNOWLEDGE}/{document_id}/delete", {}, form_page=KNOWLEDGE)
    assert response.status == 404
    response = await ai_admin.submit(f"{KNOWLEDGE}/x1/delete", {}, form_page=KNOWLEDGE)
    assert response.status == 404
    for address in (f"{KNOWLEDGE}/{document_id}/delete", f"{KNOWLEDGE}/x1/delete"):
        assert (await ai_admin.get(address)).status == 404


async def test_a_pdf_document(ai_admin, database_url):
    response = await upload(ai_admin, "rules.pdf", make_pdf(["Helmets are mandatory at the hub."]))
    assert response.status == 303
    async with database.connect(database_url) as conn:
        found = await store.search_knowledge(conn, "are helmets mandatory", 3)
    assert "Helmets are mandatory at the hub." in found[0]["body"]


async def test_arabic_text_is_found_too(ai_admin, database_url):
    await upload(
        ai_admin, "ar.txt", "يجب ارتداء الخوذة دائماً.\n\nالوقود يُدفع يوم الاثنين.".encode()
    )
    async with database.connect(database_url) as conn:
        found = await store.search_knowledge(conn, "متى يُدفع الوقود؟", 3)
    assert found and "الوقود" in found[0]["body"]


async def test_refusals_keep_the_page_with_the_error(ai_admin, database_url):
    response = await upload(ai_admin, "course.zip", b"PK\x03\x04")
    assert response.status == 400
    assert "Upload a PDF, or a .txt or .md file." in await response.text()
    response = await upload(ai_admin, "latin1.txt", "caf\xe9".encode("latin-1"))
    assert response.status == 400
    assert "The file could not be read: the file is not UTF-8 text." in await response.text()
    response = await upload(ai_admin, "broken.pdf", b"%PDF-1.4 nothing")
    assert response.status == 400 and "the PDF could not be read" in await response.text()
    response = await upload(ai_admin, "big.txt", b"a" * (sources.FILE_LIMIT + 1))
    assert response.status == 413 and "The file is larger than 20 MB." in await response.text()
    async with database.connect(database_url) as conn:
        assert await conn.fetchval("SELECT count(*) FROM knowledge_documents") == 0


async def test_names_are_shown_as_text(ai_admin):
    await upload(ai_admin, "<script>alert(1).txt", b"Some text.")
    page = await (await ai_admin.get(KNOWLEDGE)).text()
    assert "&lt;script&gt;alert(1).txt" in page and "<script>alert" not in page


async def test_the_page_needs_an_admin(client):
    response = await client.get(KNOWLEDGE, allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/admin/sign-in"


def test_pieces_cut_between_paragraphs_then_words():
    text = "one two three\n\nfour five\n\n" + "x" * 25
    assert sources.pieces(text, 20) == ["one two three", "four five", "x" * 20, "x" * 5]
    assert sources.pieces("a  b\n c", 100) == ["a b c"]
