"""Mentions in chat messages: what staff, an alert or an import wrote in a title or update must
not notify a whole channel or a person when it is posted to Slack, Teams, Discord, Mattermost,
Matrix, Telegram or a generic endpoint.

Each service acts on its own syntax: `@everyone`, `@here`, `<@123>`, `<@!123>` and `<@&123>`
(Discord), `<!channel>`, `<!here>`, `<@U123>` and `@channel` (Slack), `@all`, `@channel` and
`@name` (Mattermost, Telegram), `@room` (Matrix). A zero-width space after the `@` (and between
`<` and `!`) breaks every one of them and shows nothing. An `@` inside a word (an email address)
is no mention and is left alone, except before the broadcast words, which some services read
anywhere.
"""

import re

ZERO_WIDTH_SPACE = "\u200b"
BROADCASTS = "everyone|here|channel|all|room|group"
MENTION_START = re.compile(
    rf"(?<![\w.+-])@(?=[\w!&])|@(?=(?:{BROADCASTS})\b)|<(?=!)", re.IGNORECASE | re.UNICODE
)


def without_mentions(text: str) -> str:
    """`text` as every chat service shows it, with none of its mentions acted on."""
    return MENTION_START.sub(lambda match: match.group() + ZERO_WIDTH_SPACE, text)
