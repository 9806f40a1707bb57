"""One key per inbox: the form of an email address that rate limits count and duplicates are
found by. Mail providers deliver `Name+tag@Example.com`, `"name"@example.com` and `name@example.com`
to one inbox, and Gmail ignores dots in the local part, so each of these would otherwise be a
fresh address with limits of its own. The address is still stored and mailed as written.
"""

DOTLESS_DOMAINS = {"gmail.com", "googlemail.com"}
# Two names for one mail service: the key uses the first.
SAME_DOMAINS = {"googlemail.com": "gmail.com"}


def inbox_key(address: str) -> str:
    """`a.b+news@GMail.com` → `ab@gmail.com`; an address without `@` is only lowercased."""
    local, at, domain = address.strip().rpartition("@")
    if not at:
        return address.strip().lower()
    local, domain = _unquoted(local).lower(), domain.lower().rstrip(".")
    local = local.partition("+")[0] or local
    if domain in DOTLESS_DOMAINS:
        local = local.replace(".", "")
    domain = SAME_DOMAINS.get(domain, domain)
    return f"{local}@{domain}"


def _unquoted(local: str) -> str:
    # RFC 5321 quoted string: `"a"` is the local part `a`; a backslash quotes the next character.
    if len(local) >= 2 and local.startswith('"') and local.endswith('"'):
        inner, unquoted, escaped = local[1:-1], [], False
        for character in inner:
            if escaped or character != "\\":
                unquoted.append(character)
                escaped = False
            else:
                escaped = True
        return "".join(unquoted)
    return local
