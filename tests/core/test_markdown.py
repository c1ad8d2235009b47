from app.core.html import ENVIRONMENT
from app.core.markdown import to_html


def test_markdown_renders_emphasis_lists_and_links():
    html = to_html("**Wear** the helmet\n\n- one\n- two\n\n[guide](https://example.com/g)")
    assert "<strong>Wear</strong>" in html
    assert "<li>one</li>" in html
    assert '<a href="https://example.com/g">guide</a>' in html


def test_raw_html_and_script_links_show_as_text():
    html = to_html("<script>alert(1)</script> [x](javascript:alert(1))")
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript:' not in html


def test_templates_call_it_without_double_escaping():
    rendered = ENVIRONMENT.from_string("{{ markdown(body) }}").render(body="*a* & b")
    assert rendered.strip() == "<p><em>a</em> &amp; b</p>"
