"""Checks that HTML carries nothing executable: what the XSS corpus tests assert."""

from html.parser import HTMLParser

from incidents.security.inline_scripts import THEME_BOOT

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
# Outside Markdown a page may carry our own scripts (files under /static/js/, and the one inline
# theme snippet, checked by its exact text) and fold parts of itself with <details>.
OWN_SCRIPT_PREFIX = "/static/js/"
PAGE_FOLDS = {"details"}


class InertChecker(HTMLParser):
    """Collects every problem: an executable tag, an event handler, a script-capable URL."""

    def __init__(self, *, whole_page: bool):
        super().__init__(convert_charrefs=True)
        self.whole_page = whole_page
        self.problems: list[str] = []
        self.stack: list[bool] = []  # for each open element: is it (inside) rendered Markdown?
        self.inline_script: str | None = None  # text of an inline <script> being read

    @property
    def in_markdown(self) -> bool:
        return not self.whole_page or any(self.stack)

    def _own(self, tag: str, attrs) -> bool:
        if self.in_markdown:
            return False
        if tag in PAGE_FOLDS:
            return True
        if tag != "script":
            return False
        src = dict(attrs).get("src")
        if src is None:
            self.inline_script = ""  # judged by its text when it ends
            return True
        return src.startswith(OWN_SCRIPT_PREFIX)

    def handle_data(self, data):
        if self.inline_script is not None:
            self.inline_script += data

    def _check(self, tag: str, attrs) -> None:
        if (tag in EXECUTABLE_TAGS and not self._own(tag, attrs)) or (tag in PAGE_TAGS and self.in_markdown):
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
        if tag == "script" and self.inline_script is not None:
            if self.inline_script.strip() != THEME_BOOT:
                self.problems.append("<script> inline, not ours")
            self.inline_script = None
        if tag not in VOID_TAGS and self.stack:
            self.stack.pop()


def problems_in(html: str, *, whole_page: bool = True) -> list[str]:
    """Problems in a page (Markdown is what sits inside class="prose"), or in a bare fragment."""
    checker = InertChecker(whole_page=whole_page)
    checker.feed(html)
    checker.close()
    return checker.problems
