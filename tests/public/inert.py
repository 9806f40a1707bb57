"""Checks that HTML carries nothing executable: what the XSS corpus tests assert."""

from html.parser import HTMLParser

EXECUTABLE_TAGS = {
    "script",
    "iframe",
    "object",
    "embed",
    "style",
    "base",
    "math",
    "template",
    "details",
    "noscript",
}
# The page itself has these (stylesheet and feed links, the history filter); Markdown may not.
PAGE_TAGS = {"link", "meta", "form", "input", "select", "button", "svg", "img"}
VOID_TAGS = {"br", "hr", "img", "input", "meta", "link", "area", "source", "wbr", "col"}
URL_ATTRIBUTES = {
    "href",
    "src",
    "xlink:href",
    "action",
    "formaction",
    "background",
    "data",
    "srcdoc",
    "poster",
}
SAFE_SCHEMES = ("http:", "https:", "mailto:")


class InertChecker(HTMLParser):
    """Collects every problem: an executable tag, an event handler, a script-capable URL."""

    def __init__(self, *, whole_page: bool):
        super().__init__(convert_charrefs=True)
        self.whole_page = whole_page
        self.problems: list[str] = []
        self.stack: list[bool] = []  # for each open element: is it (inside) rendered Markdown?

    @property
    def in_markdown(self) -> bool:
        return not self.whole_page or any(self.stack)

    def _check(self, tag: str, attrs) -> None:
        if tag in EXECUTABLE_TAGS or (tag in PAGE_TAGS and self.in_markdown):
            self.problems.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"{name}= on <{tag}>")
            if name == "style" and self.in_markdown:
                self.problems.append(f"style= on <{tag}>")
            if name in URL_ATTRIBUTES and value:
                compact = "".join(value.split()).lower()
                scheme = compact.split("/", 1)[0]
                if ":" in scheme and not compact.startswith(SAFE_SCHEMES):
                    self.problems.append(f"{name}={value!r} on <{tag}>")

    def handle_starttag(self, tag, attrs):
        self._check(tag, attrs)
        if tag not in VOID_TAGS:
            classes = (dict(attrs).get("class") or "").split()
            self.stack.append("prose" in classes)

    def handle_startendtag(self, tag, attrs):
        self._check(tag, attrs)

    def handle_endtag(self, tag):
        if tag not in VOID_TAGS and self.stack:
            self.stack.pop()


def problems_in(html: str, *, whole_page: bool = True) -> list[str]:
    """Problems in a page (Markdown is what sits inside class="prose"), or in a bare fragment."""
    checker = InertChecker(whole_page=whole_page)
    checker.feed(html)
    checker.close()
    return checker.problems
