// The API docs page's one script (a file, so that the page's CSP allows no inline script).
SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#docs" });
