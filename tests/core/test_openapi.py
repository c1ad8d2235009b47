from openapi_spec_validator import validate

from app.core.keys import ERROR_SHAPES

UNDOCUMENTED = {"/api/openapi.json", "/api/docs"}


async def test_document_is_valid_openapi_31(client):
    response = await client.get("/api/openapi.json")
    assert response.status == 200
    document = await response.json()
    assert document["openapi"] == "3.1.0"
    validate(document)


async def test_every_api_route_is_documented(client):
    document = await (await client.get("/api/openapi.json")).json()
    documented = {
        (path, method.upper())
        for path, operations in document["paths"].items()
        for method in operations
    }
    for route in client.app.router.routes():
        path = route.resource.canonical
        if route.method == "HEAD" or path in UNDOCUMENTED or path.startswith("/api/docs/"):
            continue
        if path.startswith("/api/"):
            assert (path, route.method) in documented, f"{route.method} {path} is not documented"


async def test_docs_page_uses_only_local_assets(client):
    page = await (await client.get("/api/docs")).text()
    assert "http://" not in page and "https://" not in page
    assert (await client.get("/api/docs/static/swagger-ui-bundle.js")).status == 200
    assert (await client.get("/api/docs/static/swagger-ui.css")).status == 200


async def test_every_operation_documents_the_500_of_a_database_outage(client):
    document = await (await client.get("/api/openapi.json")).json()
    shapes = client.app[ERROR_SHAPES]
    for path, operations in document["paths"].items():
        shape = "ShopError" if shapes.for_path(path).invalid_status == 422 else "Error"
        for method, operation in operations.items():
            answer = operation["responses"].get("500")
            assert answer is not None, f"{method.upper()} {path} does not document 500"
            schema = answer["content"]["application/json"]["schema"]
            assert schema == {"$ref": f"#/components/schemas/{shape}"}


async def test_text_the_database_cannot_store_is_a_documented_422_on_the_shop(client):
    response = await client.get(
        "/api/products",
        params={"partner_name": "a\x00b"},
        headers={"api-key": "test-import-key"},
    )
    assert response.status == 422
    assert (await response.json())["success"] is False
    document = await (await client.get("/api/openapi.json")).json()
    assert "422" in document["paths"]["/api/products"]["get"]["responses"]
